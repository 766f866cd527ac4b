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
import { SELECT_ROWS, type ColumnTag } from "../src/db/rows.js";
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
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)\[\]$/.test(duckdbType)) return "int[]";
  if (/^(DOUBLE|FLOAT)\[\]$/.test(duckdbType)) return "num[]";
  if (/^STRUCT\(.*\)\[\]$/.test(duckdbType)) return "list";
  return duckdbType;
}

const tagKind = (tag: ColumnTag) => tag.replace(/\?$/, "");

describe("named SELECTs", () => {
  const catalog = queryCatalog();

  it("each declared row names a file under queries/select/", () => {
    // a SELECT without a declared row is read untyped (Session.select's second form)
    for (const name of Object.keys(SELECT_ROWS)) expect(catalog.selects.has(name), name).toBe(true);
  });

  it("return the columns their row declares, in order, of the declared kind", async () => {
    const session = await openRuns({ inputs: [join(ROOT, "samples", "seed-100.jsonl")], statusMap: {}, thresholds: DEFAULT_THRESHOLDS, stdin: Readable.from([]) });
    try {
      for (const [name, declared] of Object.entries(SELECT_ROWS)) {
        const query = catalog.selects.get(name)!;
        await session.need(query.reads);
        // DESCRIBE takes no parameters: the one parameter, $limit, as a number
        const described = await session.db.all(`DESCRIBE ${query.sql.replace(/^--.*\n/gm, "").replaceAll("$limit", "100")}`);
        expect({ name, columns: described.map((c) => [c.column_name, kindOf(String(c.column_type))]) }).toEqual({
          name,
          columns: Object.entries(declared).map(([column, tag]) => [column, tagKind(tag as ColumnTag)]),
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
    expect(kindOf("STRUCT(status VARCHAR, attempts BIGINT)[]")).toBe("list");
    expect(kindOf("DATE")).toBe("DATE");
  });
});
