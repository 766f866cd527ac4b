/**
 * The declared row of every named SELECT (src/db/rows.ts) against DuckDB's
 * DESCRIBE of the query in a session over seed-100 and over the AgentCompass
 * fixture run: the same columns in the same order, each of the tag's kind.
 * Nullability is not in DESCRIBE (a view's column is always nullable there);
 * it is the declaration's word, and the TypeScript that reads the rows relies on it.
 */
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { queryCatalog } from "../src/db/queries.js";
import { SELECT_ROWS, type ColumnTag, type ScalarTag } from "../src/db/rows.js";
import { DEFAULT_THRESHOLDS } from "../src/definitions.js";
import { openRuns } from "../src/ingest/runs.js";
import { ROOT } from "./helpers.js";

/** The DuckDB types a tag stands for (DESCRIBE's column_type). */
function kindOf(duckdbType: string): string {
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(duckdbType)) return "int";
  if (/^(DOUBLE|FLOAT|DECIMAL\(\d+,\d+\))$/.test(duckdbType)) return "num";
  if (duckdbType === "VARCHAR") return "text";
  if (duckdbType === "BOOLEAN") return "bool";
  if (duckdbType === "TIMESTAMP WITH TIME ZONE") return "time";
  if (duckdbType === "VARCHAR[]") return "text[]";
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)\[\]$/.test(duckdbType)) return "int[]";
  if (/^(DOUBLE|FLOAT)\[\]$/.test(duckdbType)) return "num[]";
  const struct = /^STRUCT\((.*)\)\[\]$/.exec(duckdbType);
  if (struct)
    return `list(${fieldsOf(struct[1])
      .map(([name, type]) => `${name} ${kindOf(type)}`)
      .join(", ")})`;
  return duckdbType;
}

/** The fields of `a VARCHAR, b STRUCT(c BIGINT, d DOUBLE)[]` as [name, type], split at the commas outside parentheses. */
function fieldsOf(inner: string): [string, string][] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "(") depth++;
    else if (inner[i] === ")") depth--;
    else if (inner[i] === "," && depth === 0) {
      parts.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(inner.slice(start).trim());
  return parts.map((p) => {
    const space = p.indexOf(" ");
    return [p.slice(0, space).replace(/^"|"$/g, ""), p.slice(space + 1)];
  });
}

/** The kind a tag declares: `list` alone for an untyped list of structs, `list(a text, b int)` for a declared one. */
function tagKind(tag: ColumnTag): string {
  if (typeof tag === "string") return tag.replace(/\?$/, "");
  return `list(${Object.entries(tag.list)
    .map(([name, t]) => `${name} ${(t as ScalarTag).replace(/\?$/, "")}`)
    .join(", ")})`;
}

/** A DuckDB type's kind as a declaration may state it: an undeclared list of structs is `list`. */
function describedKind(duckdbType: string, tag: ColumnTag | undefined): string {
  const kind = kindOf(duckdbType);
  return kind.startsWith("list(") && typeof tag === "string" ? "list" : kind;
}

describe("named SELECTs", () => {
  const catalog = queryCatalog();

  it("each declared row names a file under queries/select/", () => {
    for (const name of Object.keys(SELECT_ROWS)) expect(catalog.selects.has(name), name).toBe(true);
  });

  it("every file under queries/select/ has a declared row (Session.select runs no other)", () => {
    expect([...catalog.selects.keys()].filter((name) => !(name in SELECT_ROWS))).toEqual([]);
  });

  it("return the columns their row declares, in order, of the declared kind", async () => {
    const session = await openRuns({
      inputs: [join(ROOT, "samples", "seed-100.jsonl")],
      statusMap: {},
      thresholds: DEFAULT_THRESHOLDS,
      stdin: Readable.from([]),
    });
    try {
      for (const [name, declared] of Object.entries(SELECT_ROWS)) {
        const query = catalog.selects.get(name)!;
        await session.need(query.reads);
        // DESCRIBE takes no parameters: $limit as a number, any other as a NULL of its cast
        const sql = query.sql
          .replace(/^--.*\n/gm, "")
          .replaceAll("$limit", "100")
          .replace(/\$\w+/g, "NULL");
        const described = await session.db.all(`DESCRIBE ${sql}`);
        const tags = declared as Record<string, ColumnTag>;
        expect({ name, columns: described.map((c) => [c.column_name, describedKind(String(c.column_type), tags[String(c.column_name)])]) }).toEqual({
          name,
          columns: Object.entries(tags).map(([column, tag]) => [column, tagKind(tag)]),
        });
      }
    } finally {
      session.close();
    }
  });

  it("maps DuckDB's types to the tags' kinds, and leaves any other type as it is (never a match)", () => {
    expect(kindOf("BIGINT")).toBe("int");
    expect(kindOf("DECIMAL(16,15)")).toBe("num");
    expect(kindOf("DOUBLE[]")).toBe("num[]");
    expect(kindOf("STRUCT(status VARCHAR, attempts BIGINT)[]")).toBe("list(status text, attempts int)");
    expect(describedKind("STRUCT(status VARCHAR, attempts BIGINT)[]", "list")).toBe("list");
    expect(kindOf("VARCHAR[]")).toBe("text[]");
    expect(kindOf("DATE")).toBe("DATE");
  });
});
