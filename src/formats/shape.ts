/**
 * The shapes adapters declare, and the one matcher that judges a record or a
 * document's first entries against them. Detection is exact: a record is an
 * adapter's when it fits one of the adapter's declared shapes (every required
 * key present with its type, no absent key present, no undeclared key when the
 * shape is closed, and the source's path when the shape names one); how close a
 * record that does not fit came (how many of the shape's own keys it holds, and
 * what is missing or of the wrong type) is what a near miss is judged and
 * named by (formats/index.ts).
 * Shapes are data: `denom formats` and docs/formats.md show them (describeShape).
 */

/** A JSON value's type, as a shape names it. */
export type JsonType = "string" | "number" | "boolean" | "object" | "array" | "null";

/**
 * What one key must hold: a type (`any`: present, whatever it holds), one of
 * several types, a text from a fixed set (`fold`: compared trimmed and
 * lower-cased), a text with a prefix, an array of one type, an empty array, or
 * an object of a shape.
 */
export type KeyRule =
  | JsonType
  | "any"
  | readonly JsonType[]
  | { readonly text: readonly string[]; readonly fold?: boolean }
  | { readonly prefix: string }
  | { readonly items: JsonType }
  | { readonly empty: true }
  | { readonly shape: RecordShape };

/** The key of a shape that stands for a record's one key, whatever it is (`{<id>: {...}}`: the id is the key). */
export const ANY_KEY = "<key>";

/** Where a source must lie to be an adapter's (a file name, a folder layout), and how the docs show it. */
export interface PathRule {
  /** matched against the source's display name (`/` or `!` before an archive member's path) */
  readonly pattern: RegExp;
  /** e.g. `logs/<instance_id>/report.json` */
  readonly shown: string;
}

/** The shape of one kind of record an adapter reads. */
export interface RecordShape {
  /** what this kind of record is, for `denom formats` (`a trial's result`, `the run's metadata`) */
  readonly kind: string;
  /** key (a dotted path reads into nested objects: `info.model_stats`) -> what it must hold */
  readonly required: Readonly<Record<string, KeyRule>>;
  /** keys it must not hold: a record carrying one is another format's (a canonical record's `task_id`) */
  readonly absent?: readonly string[];
  /** keys it may hold beside the required ones, and what they must hold when present */
  readonly optional?: Readonly<Record<string, KeyRule>>;
  /** no key beside the required and optional ones */
  readonly closed?: boolean;
  /** the source must lie here */
  readonly path?: PathRule;
}

/**
 * The shape of an object document a DocumentAdapter reads, judged on its first
 * entries: every entry's value fits `entries.value` under a key that is none of
 * `entries.keyNot` (and, with `keyIs`, equals the value's field of that name);
 * or some entry's key is one of `someKey`'s, its value fitting the rule.
 */
export interface DocumentShape {
  readonly kind: string;
  readonly entries?: { readonly value: KeyRule; readonly keyNot?: readonly string[]; readonly keyIs?: string; readonly shown: string };
  readonly someKey?: Readonly<Record<string, KeyRule>>;
  readonly path?: PathRule;
}

/** The JSON type of a value (a number kept with its text, a BigLiteral, is a number). */
export function typeOf(v: unknown): JsonType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (v instanceof Number) return "number";
  const t = typeof v;
  return t === "string" || t === "number" || t === "boolean" ? t : "object";
}

/** The value at a dotted path, or undefined when a step is missing or not an object. */
function at(record: Record<string, unknown>, path: string): unknown {
  if (!path.includes(".") || path in record) return record[path];
  let v: unknown = record;
  for (const step of path.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[step];
  }
  return v;
}

/** Why `v` does not hold what `rule` says, or null when it does. */
export function ruleProblem(rule: KeyRule, v: unknown): string | null {
  const t = typeOf(v);
  if (rule === "any") return null;
  if (typeof rule === "string") return t === rule ? null : `expected ${article(rule)}, got ${article(t)}`;
  if (Array.isArray(rule))
    return (rule as readonly JsonType[]).includes(t) ? null : `expected ${(rule as readonly JsonType[]).map(article).join(" or ")}, got ${article(t)}`;
  const r = rule as Exclude<KeyRule, string | readonly JsonType[]>;
  if ("text" in r) {
    if (typeof v !== "string") return `expected one of ${r.text.join(", ")}, got ${article(t)}`;
    const word = r.fold ? v.trim().toLowerCase() : v;
    return r.text.includes(word) ? null : `expected one of ${r.text.join(", ")}, got ${JSON.stringify(v).slice(0, 40)}`;
  }
  if ("prefix" in r)
    return typeof v === "string" && v.startsWith(r.prefix)
      ? null
      : `expected a text starting ${JSON.stringify(r.prefix)}, got ${typeof v === "string" ? JSON.stringify(v).slice(0, 40) : article(t)}`;
  if ("items" in r) {
    if (!Array.isArray(v)) return `expected a list of ${r.items}s, got ${article(t)}`;
    const bad = v.findIndex((x) => typeOf(x) !== r.items);
    return bad < 0 ? null : `expected a list of ${r.items}s, element ${bad} is ${article(typeOf(v[bad]))}`;
  }
  if ("empty" in r) return Array.isArray(v) && v.length === 0 ? null : `expected an empty list, got ${Array.isArray(v) ? `${v.length} elements` : article(t)}`;
  if (t !== "object") return `expected an object, got ${article(t)}`;
  const inner = explainRecord(r.shape, v as Record<string, unknown>, null);
  return inner.length === 0 ? null : `not ${r.shape.kind} (${inner.join("; ")})`;
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? `an ${t}` : t === "null" ? "null" : `a ${t}`;
}

/** True when `v` holds what `rule` says (ruleProblem is null), without building the message. */
function ruleOk(rule: KeyRule, v: unknown): boolean {
  if (rule === "any") return true;
  if (typeof rule === "string") return typeOf(v) === rule;
  if (Array.isArray(rule)) return (rule as readonly JsonType[]).includes(typeOf(v));
  const r = rule as Exclude<KeyRule, string | readonly JsonType[]>;
  if ("text" in r) return typeof v === "string" && r.text.includes(r.fold ? v.trim().toLowerCase() : v);
  if ("prefix" in r) return typeof v === "string" && v.startsWith(r.prefix);
  if ("items" in r) return Array.isArray(v) && v.every((x) => typeOf(x) === r.items);
  if ("empty" in r) return Array.isArray(v) && v.length === 0;
  return typeOf(v) === "object" && fitsRecord(r.shape, v as Record<string, unknown>, null);
}

/**
 * True when `record` (from source `source`, its display name; null when
 * unknown) fits `shape` exactly: every required key holds what its rule says,
 * every optional key present does, no absent key is present, no other key when
 * the shape is closed, and the source lies on the shape's path.
 */
export function fitsRecord(shape: RecordShape, record: Record<string, unknown>, source: string | null): boolean {
  for (const key in shape.required) {
    if (key === ANY_KEY) {
      const keys = Object.keys(record);
      if (keys.length !== 1 || !ruleOk(shape.required[key], record[keys[0]])) return false;
      continue;
    }
    const v = at(record, key);
    if (v === undefined || !ruleOk(shape.required[key], v)) return false;
  }
  if (shape.optional) {
    for (const key in shape.optional) {
      const v = at(record, key);
      if (v !== undefined && !ruleOk(shape.optional[key], v)) return false;
    }
  }
  if (shape.absent) for (const key of shape.absent) if (at(record, key) !== undefined) return false;
  if (shape.closed) for (const key in record) if (!(key in shape.required) && !(shape.optional && key in shape.optional)) return false;
  return !shape.path || (source !== null && shape.path.pattern.test(source));
}

/**
 * What keeps `record` from fitting `shape`, each as `key: why` (`traj:
 * missing`, `reward: expected a number, got a string`); empty when it fits.
 */
export function explainRecord(shape: RecordShape, record: Record<string, unknown>, source: string | null): string[] {
  const problems: string[] = [];
  const keys = Object.keys(record);
  for (const [key, rule] of Object.entries(shape.required)) {
    if (key === ANY_KEY) {
      if (keys.length !== 1) problems.push(`expected one key (its id) holding the record, got ${keys.length} keys`);
      else {
        const why = ruleProblem(rule, record[keys[0]]);
        if (why) problems.push(`${keys[0]}: ${why}`);
      }
      continue;
    }
    const v = at(record, key);
    const why = v === undefined ? "missing" : ruleProblem(rule, v);
    if (why) problems.push(`${key}: ${why}`);
  }
  for (const [key, rule] of Object.entries(shape.optional ?? {})) {
    if (key in shape.required) continue;
    const v = at(record, key);
    const why = v === undefined ? null : ruleProblem(rule, v);
    if (why) problems.push(`${key}: ${why}`);
  }
  for (const key of shape.absent ?? []) if (at(record, key) !== undefined) problems.push(`${key}: present (another format's)`);
  if (shape.closed && !(ANY_KEY in shape.required)) {
    const extra = keys.filter((k) => !(k in shape.required) && !(shape.optional && k in shape.optional));
    if (extra.length) problems.push(`unexpected key${extra.length === 1 ? "" : "s"} ${extra.slice(0, 3).join(", ")}`);
  }
  if (shape.path && (source === null || !shape.path.pattern.test(source))) problems.push(`the file is not ${shape.path.shown}`);
  return problems;
}

/** True when an object document's first entries (and its source's name) fit `shape`. */
export function fitDocument(shape: DocumentShape, first: readonly { key: string; value: unknown }[], source: string | null): boolean {
  if (first.length === 0) return false;
  if (shape.path && (source === null || !shape.path.pattern.test(source))) return false;
  if (shape.entries) {
    const { value, keyNot, keyIs } = shape.entries;
    return first.every(
      (e) =>
        !(keyNot ?? []).includes(e.key) &&
        ruleOk(value, e.value) &&
        (keyIs === undefined || (typeOf(e.value) === "object" && (e.value as Record<string, unknown>)[keyIs] === e.key)),
    );
  }
  const some = shape.someKey ?? {};
  return first.some((e) => e.key in some && ruleOk(some[e.key], e.value));
}

/** A rule as `denom formats` shows it: `string`, `string or number`, `one of completed, ...`, `{...}`. */
export function describeRule(rule: KeyRule): string {
  if (typeof rule === "string") return rule;
  if (Array.isArray(rule)) return (rule as readonly JsonType[]).join(" or ");
  const r = rule as Exclude<KeyRule, string | readonly JsonType[]>;
  if ("text" in r) return `one of ${r.text.join(", ")}`;
  if ("prefix" in r) return `text ${r.prefix}...`;
  if ("items" in r) return `list of ${r.items}s`;
  if ("empty" in r) return "empty list";
  return `{${describeKeys(r.shape)}}`;
}

/** A record shape's keys as `denom formats` shows them: `task_id: string or number, traj: array, no status`. */
export function describeKeys(shape: RecordShape): string {
  const parts = Object.entries(shape.required).map(([k, r]) => `${k}: ${describeRule(r)}`);
  for (const [k, r] of Object.entries(shape.optional ?? {})) parts.push(`${k}?: ${describeRule(r)}`);
  if (shape.closed) parts.push("nothing else");
  for (const k of shape.absent ?? []) parts.push(`no ${k}`);
  return parts.join(", ");
}

/** A record shape in one line: its kind, keys and path. */
export function describeShape(shape: RecordShape): string {
  return `${shape.kind}: {${describeKeys(shape)}}${shape.path ? ` in ${shape.path.shown}` : ""}`;
}

/** A document shape in one line. */
export function describeDocumentShape(shape: DocumentShape): string {
  const body = shape.entries
    ? `{${shape.entries.shown}}`
    : `an object with one of ${Object.entries(shape.someKey ?? {})
        .map(([k, r]) => (r === "any" ? k : `${k} (${describeRule(r)})`))
        .join(", ")}`;
  return `${shape.kind}: ${body}${shape.path ? ` in ${shape.path.shown}` : ""}`;
}
