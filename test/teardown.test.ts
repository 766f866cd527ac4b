/**
 * In-memory sessions are databases attached to one DuckDB instance the process
 * shares, each with its own catalog, detached when the session closes; a
 * session to be locked down opens an instance of its own. The executable's
 * process ends with its command, so what a command closes in memory is left
 * for that end to free instead (Database.close): at most one database or
 * instance is kept, and a database on disk is always closed at once. This file
 * runs in a module graph of its own (vitest.config.ts ISOLATED): the setting
 * lasts for the whole process, and the shared instance is this file's own.
 */
import { existsSync } from "node:fs";
import type { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { Database, detached } from "../src/db/database.js";
import { lockDown } from "../src/db/sandbox.js";
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

/** The databases attached to `instance` by sessions (`session_N`), read on a connection of its own. */
async function sessionsOf(instance: DuckDBInstance): Promise<string[]> {
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll("SELECT database_name FROM duckdb_databases() WHERE database_name LIKE 'session_%' ORDER BY 1");
  connection.closeSync();
  return reader.getRowObjects().map((r) => String(r.database_name));
}

describe("in-memory sessions on the process's shared instance", () => {
  it("each has a catalog of its own, which its further connections use and no other session sees", async () => {
    const a = await Database.open();
    const b = await Database.open();
    expect(instanceOf(a)).toBe(instanceOf(b));
    expect(a.attached).not.toBe(b.attached);
    await a.run("CREATE TABLE t AS SELECT 1 AS x");
    await b.run("CREATE TABLE t AS SELECT 2 AS x");
    const helper = await a.connect();
    expect(await helper.one("SELECT x FROM t")).toEqual({ x: 1 });
    expect(await b.one("SELECT x FROM t")).toEqual({ x: 2 });
    helper.close();
    b.close();
    // b's table went with its database; a's stays
    const c = await Database.open();
    await expect(c.run("SELECT x FROM t")).rejects.toThrow(/t/);
    expect(await a.one("SELECT x FROM t")).toEqual({ x: 1 });
    a.close();
    c.close();
  });

  it("is detached at close, before the next open goes on; an instance of its own is destroyed", async () => {
    const first = await Database.open();
    const name = first.attached!;
    expect(await sessionsOf(instanceOf(first))).toContain(name);
    first.close();
    await detached();
    expect(await sessionsOf(instanceOf(first))).not.toContain(name);
    const next = await Database.open();
    expect(await sessionsOf(instanceOf(next))).toEqual([next.attached]);
    next.close();

    const own = await Database.open({ own: true });
    expect(own.attached).toBe(null);
    expect(instanceOf(own)).not.toBe(instanceOf(next));
    const destroyed = instanceOf(own);
    own.close();
    expect(await alive(destroyed)).toBe(false);
  });

  it("cannot be locked down: the sandbox's settings would be every session's", async () => {
    const db = await Database.open();
    await expect(lockDown(db)).rejects.toThrow(/instance of its own|one of its own/);
    // nothing was set: the instance still reads files
    expect(await db.one("SELECT current_setting('enable_external_access') AS on")).toEqual({ on: true });
    db.close();
  });
});

describe("what a process that ends with its command closes in memory", () => {
  it("is left until the next open after leaveTeardownToProcessEnd, never more than one", async () => {
    leaveTeardownToProcessEnd();
    const first = await Database.open();
    const shared = instanceOf(first);
    const name = first.attached!;
    first.close();
    await detached();
    expect(await sessionsOf(shared)).toEqual([name]);
    // the next open detaches it: never more than one left
    const second = await Database.open();
    expect(await sessionsOf(shared)).toEqual([second.attached]);
    second.close();

    // an instance of its own is kept, and destroyed by the next open
    const own = await Database.open({ own: true });
    expect(await sessionsOf(shared)).toEqual([]);
    const kept = instanceOf(own);
    own.close();
    expect(await alive(kept)).toBe(true);

    // a temporary database on disk is closed at once, and its folder removed
    const temporary = await Database.open({ temporary: true });
    expect(await alive(kept)).toBe(false);
    const onDisk = instanceOf(temporary);
    const folder = temporary.scratch!;
    expect(existsSync(folder)).toBe(true);
    temporary.close();
    expect(await alive(onDisk)).toBe(false);
    expect(existsSync(folder)).toBe(false);
    expect(await alive(shared)).toBe(true);
  });
});
