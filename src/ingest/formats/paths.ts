/** Run identities read from where a harness wrote its file. */
import { basename, dirname } from "node:path";

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

/** A file's name without its extension: `instance_results/swe-bench.json` -> `swe-bench`. */
export function stemOf(source: string): string {
  return basename(source.replace(/!/g, "/")).replace(/\.json(\.gz)?$/i, "");
}
