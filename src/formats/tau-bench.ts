/**
 * tau-bench historical trajectories (sierra-research/tau-bench,
 * `historical_trajectories/*.json`): a
 * top-level array of `{task_id, trial, reward, info, traj}`, one element per
 * trial of a task, no retries.
 *
 * Status: reward 1 -> success, else failure, on the 0-1 scale the format
 * declares (traits.scoreScale; every trial is marked `score_decides`: a run
 * with a reward outside [0, 1] is unscored unless `--success-threshold X`). A run that ended at tau-bench's
 * step limit (`max_num_steps`, 30 by default) is scored reward 0 and carries no
 * `info.reward_info` (tau-bench fills it only when the environment reports the
 * episode done): a failure with `status_detail` `step_limit`, so it stays in
 * every denominator, as in tau-bench's published pass^k, and is visible apart.
 */
import { countToolCalls, isFullReward, numberOf, objectOf, stemOf, textOf } from "./shared.js";
import type { FormatAdapter } from "./types.js";

/** The detail of a trial that hit the step limit (no `info.reward_info`). */
export const STEP_LIMIT = "step_limit";

export const tauBenchFormat: FormatAdapter = {
  name: "tau-bench",
  describes: "tau-bench historical trajectories: array of {task_id, trial, reward, info, traj}",
  success: "`reward` = 1 on a 0-1 scale; a run with a reward outside [0, 1] is unscored, decided only by `--success-threshold X` (reward >= X)",
  traits: { scoreScale: "0-1" },
  shapes: [{ kind: "a task run", required: { task_id: "any", reward: "any", traj: "array", info: "object" } }],
  adapt(record, context) {
    const reward = numberOf(record.reward);
    if (reward === null) return { error: `reward: expected a number, got ${JSON.stringify(record.reward)}` };
    const info = objectOf(record.info) ?? {};
    const graded = objectOf(info.reward_info) !== null;
    const status = isFullReward(reward) ? "success" : "failure";
    return {
      attempts: [
        {
          run_id: stemOf(context.source),
          task_id: record.task_id,
          trial: record.trial ?? 0,
          attempt: 1,
          status,
          status_detail: !graded && status === "failure" ? STEP_LIMIT : null,
          score: reward,
          score_decides: true,
          tool_call_count: countToolCalls(record.traj),
          // the user simulator's spend, not the agent's: kept apart from cost_usd
          user_cost_usd: numberOf(info.user_cost),
          // who ended the episode: user, transfer_to_human_agents, or the last tool called
          ended_by: textOf(info.source),
        },
      ],
    };
  },
};
