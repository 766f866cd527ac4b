/**
 * The SQL of `queries/`, read as a catalog of relations: one file per relation,
 * named after it, in a layer folder (docs/development.md):
 *
 *   reference/      constant tables and macros (status aliases, event roles, the denominators)
 *   staging/        the loaded attempts, cleaned (stg_attempts)
 *   intermediate/   attempt facts -> timeout cause -> faults -> trials -> trial outcomes -> cells
 *   marts/<area>/   the figures commands read (rates, breakdown, meta, efficiency, ...)
 *   <harness>/      a harness's own views (FormatTraits.ownViews), created with the marts
 *
 * Each file opens with `-- <name>: what it is` and `-- Reads: a, b; getvariable('x').`:
 * the relations and session variables it reads. Files run in layer order and,
 * inside a layer, in the order their Reads give (a file after what it reads,
 * ties by path). A relation past reference/ is materialized once per session,
 * unless its header says `-- Not materialized: why` (always a view) or
 * `-- Not materialized on big inputs: why` (a view only past a few attempts:
 * Relation.copiedWhenFew). A line `-- Empty when: x is empty, getvariable('y') is null.`
 * states when the relation has no rows (Relation.emptyWhen): a session then creates its
 * table empty instead of computing it.
 * `queries/select/` holds no relations: the named SELECTs commands run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DenomError } from "../errors.js";
import { QUERIES_DIR } from "../paths.js";

/** The layer folders, in the order a session creates them; any other folder is a harness's, created with the marts. */
export const LAYERS = ["reference", "staging", "intermediate", "marts"] as const;
export type Layer = (typeof LAYERS)[number];

/** One relation (view, table or macro) of queries/. */
export interface Relation {
  name: string;
  /** the path under queries/, e.g. `intermediate/trials.sql` */
  path: string;
  /** the layer it is created in (a harness folder counts as marts) */
  layer: Layer;
  kind: "view" | "table" | "macro";
  sql: string;
  /** relations and tables named on the Reads line */
  reads: string[];
  /** session variables named on the Reads line (getvariable('x')) */
  variables: string[];
  /** a view past reference/ whose header does not say `Not materialized`: a session copies it into a TEMP table */
  copied: boolean;
  /**
   * a view whose header says `Not materialized on big inputs`: read through (a view)
   * where a copy would hold the attempts or trials again, copied like the others in a
   * session in memory when what it reads is small (Session.copies,
   * COPY_WHEN_FEW_MAX_ROWS), where the copy saves every reader planning the view again
   */
  copiedWhenFew: boolean;
  /** with SessionOptions.views (every relation a view up front): a staging or intermediate view copied once per session */
  materialized: boolean;
  /** a copied view `denom report` reads (through select/report/ and select/meta/): `ingest --db` keeps it evaluated in the file (src/db/layer-cache.ts) */
  kept: boolean;
  /**
   * the header's `-- Empty when:` lines, each a list of conditions that together leave the
   * relation without a row (every row of it comes from a row of what the conditions say
   * is empty, or needs a session variable they say is NULL); several lines: any one of
   * them will do. Empty for a relation whose header states none.
   */
  emptyWhen: EmptyCondition[][];
}

/** A condition of an `-- Empty when:` line: a relation or loaded table it reads has no rows, or a session variable it reads is NULL. */
export type EmptyCondition = { empty: string } | { isNull: string };

/** A named SELECT a command runs: `queries/select/<name>.sql` (sqlc style), e.g. `report/status_counts`. */
export interface NamedSelect {
  name: string;
  sql: string;
  /** the relations and tables it reads, from its header */
  reads: string[];
}

/** The relations of a queries folder in the order a session creates them, and its named SELECTs. */
export interface Catalog {
  dir: string;
  relations: Relation[];
  byName: Map<string, Relation>;
  selects: Map<string, NamedSelect>;
}

/** The named SELECTs of `denom report` (select/report/, select/meta/): what they read is what ingest --db keeps. */
const KEPT_FOR = ["report", "meta"];

const catalogs = new Map<string, Catalog>();

/** The catalog of `dir`, read from disk once per folder and process. Throws DenomError on a malformed file. */
export function queryCatalog(dir: string = QUERIES_DIR): Catalog {
  let catalog = catalogs.get(dir);
  if (!catalog) {
    catalog = readCatalog(dir);
    catalogs.set(dir, catalog);
  }
  return catalog;
}

function sqlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".sql"))
    .map((f) => f.split("\\").join("/"))
    .sort();
}

function readCatalog(dir: string): Catalog {
  const files = sqlFiles(dir);
  const selects = new Map<string, NamedSelect>();
  for (const path of files.filter((f) => f.startsWith("select/"))) {
    const sql = readFileSync(join(dir, path), "utf8");
    const name = path.slice("select/".length, -".sql".length);
    selects.set(name, { name, sql, reads: parseReads(path, sql).reads });
  }
  const parsed = files.filter((path) => !path.startsWith("select/")).map((path) => parseRelation(path, readFileSync(join(dir, path), "utf8")));
  const byName = new Map<string, Relation>();
  for (const r of parsed) {
    if (byName.has(r.name)) throw new DenomError(`queries/${r.path}: ${r.name} is also defined in queries/${byName.get(r.name)!.path}`);
    byName.set(r.name, r);
  }
  const relations: Relation[] = [];
  for (const layer of LAYERS)
    relations.push(
      ...ordered(
        parsed.filter((r) => r.layer === layer),
        byName,
        relations,
      ),
    );
  // what `report` reads, and all it reads in turn: what ingest --db keeps
  const readByReport = new Set<string>();
  const visit = (name: string) => {
    if (readByReport.has(name)) return;
    readByReport.add(name);
    for (const read of byName.get(name)?.reads ?? []) visit(read);
  };
  for (const [name, query] of selects) if (KEPT_FOR.some((folder) => name.startsWith(`${folder}/`))) query.reads.forEach(visit);
  for (const r of relations) r.kept = r.copied && readByReport.has(r.name);
  return { dir, relations, byName, selects };
}

/**
 * The relations of one layer, each after the ones it reads (ties by path).
 * Throws DenomError when a file reads a relation of a later layer or the reads form a circle.
 */
function ordered(layer: Relation[], byName: Map<string, Relation>, earlier: Relation[]): Relation[] {
  const done = new Set(earlier.map((r) => r.name));
  const inLayer = new Set(layer.map((r) => r.name));
  for (const r of layer)
    for (const read of r.reads) {
      const other = byName.get(read);
      if (other && !done.has(read) && !inLayer.has(read)) throw new DenomError(`queries/${r.path}: reads ${read} of a later layer (queries/${other.path})`);
    }
  const out: Relation[] = [];
  let left = layer;
  while (left.length) {
    const ready = left.filter((r) => r.reads.every((read) => done.has(read) || !inLayer.has(read)));
    if (!ready.length) throw new DenomError(`queries/: the Reads of ${left.map((r) => r.path).join(", ")} form a circle`);
    for (const r of ready) done.add(r.name);
    out.push(...ready);
    left = left.filter((r) => !ready.includes(r));
  }
  return out;
}

/** Parses one file: its statement's name and kind, and its header's Reads. */
export function parseRelation(path: string, sql: string): Relation {
  const folder = path.split("/")[0];
  const layer: Layer = (LAYERS as readonly string[]).includes(folder) ? (folder as Layer) : "marts";
  const created = /^create or replace (?:temp )?(view|table|macro) (\w+)/m.exec(sql);
  const name = path
    .split("/")
    .pop()!
    .replace(/\.sql$/, "");
  if (!created || created[2] !== name) throw new DenomError(`queries/${path}: expected one statement creating ${name}`);
  const header = sql.slice(0, created.index);
  const { reads, variables } = parseReads(path, header);
  const notMaterialized = /^-- Not materialized( on big inputs)?:/m.exec(header);
  const copied = created[1] === "view" && layer !== "reference" && !notMaterialized;
  const copiedWhenFew = created[1] === "view" && layer !== "reference" && Boolean(notMaterialized?.[1]);
  const materialized = copied && (layer === "staging" || layer === "intermediate");
  // set by readCatalog, once every file is read
  const kept = false;
  const emptyWhen = parseEmptyWhen(path, header, reads, variables);
  if (emptyWhen.length && !copied && !copiedWhenFew)
    throw new DenomError(`queries/${path}: only a view past reference/ that a session copies states when it is empty`);
  return { name, path, layer, kind: created[1] as Relation["kind"], sql, reads, variables, copied, copiedWhenFew, materialized, kept, emptyWhen };
}

/**
 * The header's `-- Empty when: a is empty, getvariable('b') is null.` lines (Relation.emptyWhen).
 * Throws DenomError for a condition of another form, or naming what the Reads line does not.
 */
export function parseEmptyWhen(path: string, header: string, reads: readonly string[], variables: readonly string[]): EmptyCondition[][] {
  const rules: EmptyCondition[][] = [];
  for (const line of header.matchAll(/^-- Empty when:(.*)$/gm)) {
    const conditions = line[1]
      .trim()
      .replace(/\.$/, "")
      .split(",")
      .map((text) => {
        const empty = /^(\w+) is empty$/.exec(text.trim());
        if (empty && reads.includes(empty[1])) return { empty: empty[1] };
        const isNull = /^getvariable\('(\w+)'\) is null$/.exec(text.trim());
        if (isNull && variables.includes(isNull[1])) return { isNull: isNull[1] };
        throw new DenomError(
          `queries/${path}: "-- Empty when:" expects "x is empty" or "getvariable('x') is null" of what the Reads line names, not "${text.trim()}"`,
        );
      });
    rules.push(conditions);
  }
  return rules;
}

/**
 * The header line `-- Reads: a, b; getvariable('x').` (it may go on over lines
 * indented `--   `; a parenthesis explains, and is not read). Throws DenomError when absent.
 */
export function parseReads(path: string, header: string): { reads: string[]; variables: string[] } {
  const line = /^-- Reads:(.*(?:\n--\s{3,}\S.*)*)/m.exec(header);
  if (!line) throw new DenomError(`queries/${path}: the header names no Reads`);
  const text = line[1].replace(/\n--\s+/g, " ").replace(/\([^)]*\)/g, (m) => (m.startsWith("('") ? m : ""));
  const end = text.search(/\.(\s|$)/);
  const reads: string[] = [];
  const variables: string[] = [];
  for (const item of (end >= 0 ? text.slice(0, end) : text)
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const variable = /^getvariable\('(\w+)'\)$/.exec(item);
    if (variable) variables.push(variable[1]);
    else if (item !== "nothing") reads.push(item);
  }
  return { reads, variables };
}

/**
 * The session variables `name` reads, directly or through what it reads.
 * Relations not in the catalog (the loaded tables) read none.
 */
export function variablesRead(catalog: Catalog, name: string, seen: Map<string, Set<string>> = new Map()): Set<string> {
  const known = seen.get(name);
  if (known) return known;
  const vars = new Set<string>();
  seen.set(name, vars);
  const relation = catalog.byName.get(name);
  if (relation) {
    for (const v of relation.variables) vars.add(v);
    for (const read of relation.reads) for (const v of variablesRead(catalog, read, seen)) vars.add(v);
  }
  return vars;
}
