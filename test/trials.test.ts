/**
 * The trials view's times (DESIGN section 6): a trial runs from its first start
 * to its last end; queue time before the first start is not in it, and neither
 * is it in the run's window.
 */
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { openRuns } from "../src/ingest/runs.js";
import { DEFAULT_THRESHOLDS } from "../src/definitions.js";
import { jsonl, tempDir } from "./helpers.js";

describe("trial times", () => {
  // a: queued at 09:00:00, ran 09:01:00-09:02:00 (timeout), retried 09:03:00-09:05:30
  // b: no submitted_at, ran 09:00:30-09:01:30
  const run = jsonl(
    { task_id: "a", attempt: 1, status: "timeout", submitted_at: "2025-03-12T09:00:00Z", started_at: "2025-03-12T09:01:00Z", ended_at: "2025-03-12T09:02:00Z" },
    { task_id: "a", attempt: 2, status: "success", submitted_at: "2025-03-12T09:02:30Z", started_at: "2025-03-12T09:03:00Z", ended_at: "2025-03-12T09:05:30Z" },
    { task_id: "b", status: "success", started_at: "2025-03-12T09:00:30Z", ended_at: "2025-03-12T09:01:30Z" },
  );

  it("runs a trial and the window from the first start, and gives the trial's wall time", async () => {
    const file = join(tempDir({ "run.jsonl": run }), "run.jsonl");
    const session = await openRuns({ inputs: [file], statusMap: {}, thresholds: DEFAULT_THRESHOLDS, stdin: Readable.from([]) });
    const db = session.db;
    try {
      await session.need(["trials", "run_summary"]);
      const trials = await db.all(
        "SELECT task_id, trial_started_at, trial_ended_at, trial_wall_s, first_submitted_at, attempts_made FROM trials ORDER BY task_id",
      );
      expect(trials).toEqual([
        // 09:01:00 -> 09:05:30 is 4 min 30 s = 270 s; submitted at 09:00:00, not its start
        {
          task_id: "a",
          trial_started_at: "2025-03-12T09:01:00Z",
          trial_ended_at: "2025-03-12T09:05:30Z",
          trial_wall_s: 270,
          first_submitted_at: "2025-03-12T09:00:00Z",
          attempts_made: 2,
        },
        // 09:00:30 -> 09:01:30 is 60 s
        {
          task_id: "b",
          trial_started_at: "2025-03-12T09:00:30Z",
          trial_ended_at: "2025-03-12T09:01:30Z",
          trial_wall_s: 60,
          first_submitted_at: null,
          attempts_made: 1,
        },
      ]);
      // the window opens at b's start (09:00:30), not at a's submission (09:00:00)
      expect(await db.one("SELECT window_start, window_end FROM run_summary")).toEqual({
        window_start: "2025-03-12T09:00:30Z",
        window_end: "2025-03-12T09:05:30Z",
      });
    } finally {
      session.close();
    }
  });
  it("counts the most attempts in flight at once, an attempt that ends as another starts not overlapping it", async () => {
    // x 0-10 s, z 5-15, y 10-20, u1-u3 16/17/18-20, v1-v3 20-30/31/32 (seconds past 10:00).
    // In flight: x from 0; x, z from 5; at 10 x ends as y starts: z, y; then y alone from 15,
    // y and u1-u3 from 18: 4; at 20 those four end as v1-v3 start: 3, never 4 + 3.
    const at = (s: number) => `2025-03-12T10:00:${String(s).padStart(2, "0")}Z`;
    const row = (task_id: string, start: number, end: number) => ({ task_id, status: "success", started_at: at(start), ended_at: at(end) });
    const file = join(
      tempDir({
        "run.jsonl": jsonl(
          row("x", 0, 10),
          row("y", 10, 20),
          row("z", 5, 15),
          row("u1", 16, 20),
          row("u2", 17, 20),
          row("u3", 18, 20),
          row("v1", 20, 30),
          row("v2", 20, 31),
          row("v3", 20, 32),
        ),
      }),
      "run.jsonl",
    );
    const session = await openRuns({ inputs: [file], statusMap: {}, thresholds: DEFAULT_THRESHOLDS, stdin: Readable.from([]) });
    try {
      await session.need(["run_summary"]);
      expect(await session.db.one("SELECT concurrency FROM run_summary")).toEqual({ concurrency: 4 });
    } finally {
      session.close();
    }
  });
});
