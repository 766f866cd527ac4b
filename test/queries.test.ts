/**
 * The catalog of queries/ (src/db/queries.ts): every file's `-- Reads:` header
 * names exactly what its statement reads, checked against DuckDB's own parse
 * tree (json_serialize_sql: the tables of every FROM, minus the statement's CTE
 * names; the macros it calls; the getvariable() names), so the order a session
 * creates relations in, and what ingest --db may keep, follow from true headers.
 */
import { describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { parseRelation, queryCatalog, type Relation } from "../src/db/queries.js";
import { TABLES } from "../src/db/schema.js";

interface Refs {
  tables: Set<string>;
  functions: Set<string>;
  variables: Set<string>;
  ctes: Set<string>;
}

function walk(node: unknown, refs: Refs): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, refs);
    return;
  }
  if (!node || typeof node !== "object") return;
  const n = node as Record<string, unknown>;
  if (n.type === "BASE_TABLE" && typeof n.table_name === "string") refs.tables.add(n.table_name);
  if (n.class === "FUNCTION" && typeof n.function_name === "string") {
    refs.functions.add(n.function_name);
    const first = (n.children as { value?: { value?: unknown } }[] | undefined)?.[0];
    if (n.function_name === "getvariable" && typeof first?.value?.value === "string") refs.variables.add(first.value.value);
  }
  const map = (n.cte_map as { map?: { key: string }[] } | undefined)?.map;
  if (map) for (const e of map) refs.ctes.add(e.key);
  for (const v of Object.values(n)) walk(v, refs);
}

/** What the statement of `sql` (a SELECT, or the body of a view, table or macro) reads. */
async function readsOf(db: Database, sql: string, macros: Set<string>): Promise<{ reads: string[]; variables: string[] }> {
  const body = sql
    .replace(/^[\s\S]*?create or replace (?:temp )?(?:view|table) \w+ as/m, "")
    .replace(/^[\s\S]*?create or replace macro \w+\([^)]*\) as/m, "select ")
    .replace(/;\s*$/, "");
  const row = await db.one("SELECT json_serialize_sql($sql::VARCHAR) AS tree", { sql: body });
  const tree = JSON.parse(String(row?.tree));
  expect(tree.error, tree.error_message).toBe(false);
  const refs: Refs = { tables: new Set(), functions: new Set(), variables: new Set(), ctes: new Set() };
  walk(tree, refs);
  const reads = [...refs.tables].filter((t) => !refs.ctes.has(t));
  reads.push(...[...refs.functions].filter((f) => macros.has(f)));
  return { reads: reads.sort(), variables: [...refs.variables].sort() };
}

describe("queries/", () => {
  const catalog = queryCatalog();
  const macros = new Set(catalog.relations.filter((r) => r.kind === "macro").map((r) => r.name));
  const known = new Set([...catalog.byName.keys(), ...Object.keys(TABLES)]);

  it("holds the layers, one relation per file named after it, each after what it reads", () => {
    expect(new Set(catalog.relations.map((r) => r.layer))).toEqual(new Set(["reference", "staging", "intermediate", "marts"]));
    const seen = new Set<string>();
    for (const r of catalog.relations) {
      expect(r.path.endsWith(`/${r.name}.sql`), r.path).toBe(true);
      for (const read of r.reads) {
        expect(known.has(read), `${r.path} reads ${read}, which is no relation or table`).toBe(true);
        if (catalog.byName.has(read)) expect(seen.has(read), `${r.path} is created before ${read}, which it reads`).toBe(true);
      }
      seen.add(r.name);
    }
    // the timeout classifier's chain, in this order
    const chain = ["stg_attempts", "attempt_facts", "attempt_timeout_cause", "attempt_faults", "trials", "trial_outcomes"];
    const order = catalog.relations.map((r) => r.name).filter((name) => chain.includes(name));
    expect(order).toEqual(chain);
  });

  it("every file's Reads header names exactly what its statement reads", async () => {
    const db = await Database.open();
    try {
      for (const r of catalog.relations) {
        const actual = await readsOf(db, r.sql, macros);
        expect({ file: r.path, reads: [...r.reads].sort(), variables: [...r.variables].sort() }).toEqual({ file: r.path, ...actual });
      }
      for (const [name, s] of catalog.selects) {
        const actual = await readsOf(db, s.sql, macros);
        expect({ file: `select/${name}.sql`, reads: [...s.reads].sort() }).toEqual({ file: `select/${name}.sql`, reads: actual.reads });
        for (const read of s.reads) expect(known.has(read), `select/${name}.sql reads ${read}`).toBe(true);
      }
    } finally {
      db.close();
    }
  });

  it("keeps for ingest --db what report reads, and not the audit's relations", () => {
    const kept = catalog.relations.filter((r) => r.kept).map((r) => r.name);
    for (const name of ["stg_attempt_marks", "trials", "missing_trials", "figure_intervals", "trial_inventory", "accounting", "agentcompass_verdict"])
      expect(kept).toContain(name);
    // views read through (`Not materialized`, on big inputs or always): their readers' few columns of the loaded attempts and of trials
    for (const name of ["stg_attempts", "trial_outcomes", "audit_figures", "audit_membership", "scoped_attempts", "attempts_classified", "rate_intervals"])
      expect(kept).not.toContain(name);
  });

  it("reads a header's Reads over several lines, with explanations in parentheses left out", () => {
    const r: Relation = parseRelation(
      "intermediate/x.sql",
      "-- x: an example.\n-- Reads: a, b (the b of c, d); getvariable('v1'),\n--   getvariable('v2') (flag --v2), e.\n-- more prose. Reads: f.\ncreate or replace view x as select 1;\n",
    );
    expect([r.reads, r.variables, r.copied, r.copiedWhenFew, r.materialized]).toEqual([["a", "b", "e"], ["v1", "v2"], true, false, true]);
    const notCopied = parseRelation(
      "marts/y/y.sql",
      "-- y: an example.\n-- Reads: nothing.\n-- Not materialized: big.\ncreate or replace view y as select 1;\n",
    );
    expect([notCopied.reads, notCopied.copied, notCopied.copiedWhenFew, notCopied.materialized]).toEqual([[], false, false, false]);
    const whenFew = parseRelation(
      "intermediate/z.sql",
      "-- z: an example.\n-- Reads: nothing.\n-- Not materialized on big inputs: every attempt again.\ncreate or replace view z as select 1;\n",
    );
    expect([whenFew.copied, whenFew.copiedWhenFew, whenFew.materialized]).toEqual([false, true, false]);
  });
});
