/** Small readers the harness adapters share: plain objects, source names, run identities from paths. */
import { basename, dirname } from "node:path";

/** `v` as a plain object, or null (arrays and scalars are not). */
export function objectOf(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** A finite number, or null. */
export function numberOf(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** A non-blank string, or null. */
export function textOf(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

/**
 * A file's own name without its ending: `runs/gpt-4o-airline.json` ->
 * `gpt-4o-airline`, `logs.tar.gz!trajs/x.traj` -> `x`. A run or task named
 * after the file that holds it.
 */
export function stemOf(source: string): string {
  const own = basename(source.slice(source.lastIndexOf("!") + 1));
  return own.replace(/(\.(json|jsonl|ndjson|traj))?(\.gz)?$/i, "");
}

/**
 * The folder a file lies in, `levels` up (1 = its own folder), from a source's
 * display name; an archive member (`a.tar.gz!run/x.json`) counts its path inside
 * the archive, then the archive's name. Null for stdin (`-`) or a bare name.
 */
export function folderOf(source: string, levels = 1): string | null {
  let path = source.replace(/!/g, "/");
  for (let i = 0; i < levels; i++) path = dirname(path);
  const name = basename(path);
  return name === "." || name === "/" || name === "" ? null : name;
}

/** tau-bench's success test: a reward of 1 (within 1e-6, as its `is_successful` reads a float). */
export function isFullReward(reward: number): boolean {
  return Math.abs(reward - 1) < 1e-6;
}

/** Tool calls in OpenAI-style chat messages: the `tool_calls` of every assistant message. */
export function countToolCalls(messages: unknown): number | null {
  if (!Array.isArray(messages)) return null;
  let n = 0;
  for (const m of messages) {
    const calls = objectOf(m)?.tool_calls;
    if (Array.isArray(calls)) n += calls.length;
  }
  return n;
}

/**
 * A model provider's HTTP failure named in an error text: 401, 402, 403, 429 or
 * 5xx as a status code (`Error code: 429`, `503 Service Unavailable`), or an
 * LLM client's error class for one (litellm's `RateLimitError`, ...).
 */
export const PROVIDER_HTTP_ERROR =
  /\b(?:error code|status code|status|http(?:\/\d(?:\.\d)?)?|code)[:=]?\s*["']?(401|402|403|429|5\d\d)\b|\b(401|402|403|429|5\d\d)\s*(?:-\s*)?(?:unauthorized|payment required|forbidden|too many requests|internal server error|bad gateway|service unavailable|gateway time-?out|server error)|\b(?:RateLimitError|AuthenticationError|PermissionDeniedError|InternalServerError|ServiceUnavailableError|APIConnectionError|BadGatewayError)\b/i;

/**
 * A whole file (a small claims file) that is one JSON value starting with
 * `opener`, parsed; null when it is not one (a plain claims list, or not JSON).
 */
export function jsonDocumentOf(text: string, opener: "[" | "{"): unknown {
  if (!text.trimStart().startsWith(opener)) return null;
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return null;
  }
}

/** The last segment of a path written with either separator: `a/b\\c.json` -> `c.json`. */
export function fileNameOf(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
