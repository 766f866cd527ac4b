/**
 * `--exclude-tasks FILE`: tasks known to be broken, each with its reason, leave
 * a named denominator `validated` (valid minus those tasks) that joins the
 * chain after `valid`; total stays every trial. Counts worked by hand from
 * samples/seed-100.jsonl: t002 and t003 each have one attempt, a success, and no
 * environment fault; the grid without the flag is total 70/100 first, 82/100
 * final; attributable 70/90 and 82/94.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, denom, tempDir } from "./helpers.js";

const SEED = join(ROOT, "samples", "seed-100.jsonl");
const LIST = "# known broken\nt002 tests fail on the gold patch\n\nt003\tthe container image is gone\n";

describe("--exclude-tasks", () => {
  it("adds validated after valid: two successes fewer on both bases; the steps after it follow; total unchanged", async () => {
    const file = join(tempDir({ "broken.txt": LIST }), "broken.txt");
    const r = await denom(["report", SEED, "--exclude-tasks", file, "--json"]);
    expect(r.code).toBe(0);
    const cells = Object.fromEntries(r.json().rates.map((c: any) => [`${c.basis}/${c.denominator}`, `${c.successes}/${c.count}`]));
    expect(cells).toEqual({
      "first/total": "70/100",
      "first/valid": "70/100",
      "first/validated": "68/98",
      "first/attributable": "68/88",
      "first/completable": "68/68",
      "final/total": "82/100",
      "final/valid": "82/100",
      "final/validated": "80/98",
      "final/attributable": "80/92",
      "final/completable": "80/83",
    });
    expect(r.json().meta.definitions.excluded_tasks).toEqual({
      file,
      sha256: createHash("sha256").update(LIST).digest("hex"),
      tasks: [
        { task_id: "t002", reason: "tests fail on the gold patch" },
        { task_id: "t003", reason: "the container image is gone" },
      ],
    });
    const text = await denom(["report", SEED, "--exclude-tasks", file]);
    expect(text.stdout).toContain(`excluded tasks (validated): 2 tasks listed in ${file} (sha256 ${createHash("sha256").update(LIST).digest("hex")})\n`);
    const gate = await denom(["gate", SEED, "--exclude-tasks", file, "--min", "final/validated=0.8"]);
    expect(gate.stdout).toBe("ok   final/validated = 81.6% (80/98), min 80.0%\ngate passed: the condition holds\n");
  });

  it("reading a --db file, whose kept layers were computed without the list, gives the same validated cells", async () => {
    const dir = tempDir({ "broken.txt": LIST });
    const db = join(dir, "runs.duckdb");
    expect((await denom(["ingest", SEED, "--db", db, "-q"])).code).toBe(0);
    const r = await denom(["report", "--db", db, "--exclude-tasks", join(dir, "broken.txt"), "--json"]);
    const validated = r
      .json()
      .rates.filter((c: any) => c.denominator === "validated")
      .map((c: any) => `${c.basis} ${c.successes}/${c.count}`);
    expect(validated).toEqual(["first 68/98", "final 80/98"]);
  });

  it("without the flag the chain is the four denominators, and final/validated is no cell", async () => {
    const r = await denom(["report", SEED, "--json"]);
    expect(
      r
        .json()
        .rates.map((c: any) => c.denominator)
        .slice(0, 4),
    ).toEqual(["total", "valid", "attributable", "completable"]);
    expect(r.json().meta.definitions.excluded_tasks).toBeNull();
    const gate = await denom(["gate", SEED, "--min", "final/validated=0.8"]);
    expect(gate.code).toBe(2);
  });

  it("refuses a line without a reason and a task listed twice, naming the file and line", async () => {
    const dir = tempDir({ "bare.txt": "t002 broken\nt003\n", "twice.txt": "t002 broken\nt002 again\n" });
    const bare = await denom(["report", SEED, "--exclude-tasks", join(dir, "bare.txt")]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(
      `denom: --exclude-tasks ${join(dir, "bare.txt")}:2: "t003" has no reason; write TASK_ID REASON (e.g. "django__django-11099 tests fail on the gold patch")\n`,
    );
    const twice = await denom(["report", SEED, "--exclude-tasks", join(dir, "twice.txt")]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe(`denom: --exclude-tasks ${join(dir, "twice.txt")}:2: task t002 is listed again (first on line 1); list it once\n`);
  });
});
