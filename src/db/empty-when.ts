/**
 * The `-- Empty when:` lines of queries/ (Relation.emptyWhen) applied in a session: a
 * relation whose conditions hold there is created as a table with its columns and no
 * rows (`select * from (...) limit 0`: DuckDB binds it, so the columns and their types
 * are the computed relation's, and computes nothing), instead of computed. On a small
 * input most of a relation's cost is DuckDB setting up its plan whatever its rows, and a
 * report of a few hundred attempts computes about a third of its relations empty
 * (docs/benchmarks.md). Whether a line is right is the SQL's matter: test/empty-when.test.ts
 * computes every relation whose line held on the inputs of the tests and finds it empty.
 */
import { type Database, sqlName } from "./database.js";
import type { Catalog, Relation } from "./queries.js";

/** What the loaded tables and the session variables named by the catalog's Empty when lines are: which tables have no rows, which variables are NULL. */
interface Loaded {
  empty: Set<string>;
  isNull: Set<string>;
}

/**
 * What a session knows of how many rows its relations hold, to apply their Empty when
 * lines: the rows of each relation it created as a table (CREATE TABLE AS reports them),
 * and, asked once on first use, which loaded tables have none and which variables are
 * NULL. A relation created as a view, or read from a kept layer, has no known count:
 * a line naming it never holds.
 */
export class EmptyFacts {
  private readonly rows = new Map<string, number>();
  private loaded: Promise<Loaded> | null = null;

  constructor(private readonly catalog: Catalog) {}

  /** Notes that the table `name` was created with `rows` rows. */
  created(name: string, rows: number): void {
    this.rows.set(name, rows);
  }

  /** Whether every condition of one of `relation`'s Empty when lines holds; loaded tables and variables counted on `db` on first use. */
  async holds(db: Database, relation: Relation): Promise<boolean> {
    for (const rule of relation.emptyWhen) {
      let holds = true;
      for (const condition of rule) {
        if ("empty" in condition && this.catalog.byName.has(condition.empty)) holds = this.rows.get(condition.empty) === 0;
        else {
          this.loaded ??= this.ask(db);
          const loaded = await this.loaded;
          holds = "empty" in condition ? loaded.empty.has(condition.empty) : loaded.isNull.has(condition.isNull);
        }
        if (!holds) break;
      }
      if (holds) return true;
    }
    return false;
  }

  /** One query for every loaded table and variable any Empty when line of the catalog names. */
  private async ask(db: Database): Promise<Loaded> {
    const tables = new Set<string>();
    const variables = new Set<string>();
    for (const relation of this.catalog.relations)
      for (const rule of relation.emptyWhen)
        for (const condition of rule) {
          if (!("empty" in condition)) variables.add(condition.isNull);
          else if (!this.catalog.byName.has(condition.empty)) tables.add(condition.empty);
        }
    const columns = [
      ...[...tables].map((t) => `NOT EXISTS (SELECT 1 FROM ${sqlName(t)}) AS ${sqlName(`empty ${t}`)}`),
      ...[...variables].map((v) => `getvariable('${v}') IS NULL AS ${sqlName(`null ${v}`)}`),
    ];
    const row = columns.length ? await db.one(`SELECT ${columns.join(", ")}`) : {};
    return {
      empty: new Set([...tables].filter((t) => row?.[`empty ${t}`] === true)),
      isNull: new Set([...variables].filter((v) => row?.[`null ${v}`] === true)),
    };
  }
}
