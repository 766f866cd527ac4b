/**
 * The executable's process ends with its command, so an in-memory DuckDB
 * instance it closes is left for that end to free instead of being destroyed on
 * the way out (Database.close); at most one is kept, and a database on disk is
 * always closed at once. This file runs in a module graph of its own
 * (vitest.config.ts ISOLATED): the setting lasts for the whole process.
 */
import { existsSync } from "node:fs";
import type { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { Database } from "../src/db/database.js";
import { leaveTeardownToProcessEnd } from "../src/scratch.js";

/** The DuckDB instance behind `db` (private to Database). */
function instanceOf(db: Database): DuckDBInstance {
  return (db as unknown as { instance: DuckDBInstance }).instance;
}

/** True when `instance` was not destroyed: a connection to it can still be made. */
async function alive(instance: DuckDBInstance): Promise<boolean> {
  try {
    (await instance.connect()).closeSync();
    return true;
  } catch {
    return false;
  }
}

describe("an in-memory instance closed in a process that ends with its command", () => {
  it("is destroyed at close before, and kept until the next open after leaveTeardownToProcessEnd", async () => {
    const before = await Database.open();
    const destroyed = instanceOf(before);
    before.close();
    expect(await alive(destroyed)).toBe(false);

    leaveTeardownToProcessEnd();
    const first = await Database.open();
    const kept = instanceOf(first);
    first.close();
    expect(await alive(kept)).toBe(true);
    // the next open destroys it: never more than one kept
    const second = await Database.open();
    expect(await alive(kept)).toBe(false);
    const next = instanceOf(second);
    second.close();
    expect(await alive(next)).toBe(true);

    // a temporary database on disk is closed at once, and its folder removed
    const temporary = await Database.open({ temporary: true });
    expect(await alive(next)).toBe(false);
    const onDisk = instanceOf(temporary);
    const folder = temporary.scratch!;
    expect(existsSync(folder)).toBe(true);
    temporary.close();
    expect(await alive(onDisk)).toBe(false);
    expect(existsSync(folder)).toBe(false);
  });
});
