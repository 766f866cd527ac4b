/**
 * tau2-bench results (sierra-research/tau2-bench `Results` JSON:
 * `{timestamp, info, tasks, simulations}`).
 * Each element of `simulations[]` is one trial of a task, no retries. tau2's
 * "dir" layout splits a run: `<run>/results.json` (`{timestamp, info, tasks,
 * simulation_index}`) and one `<run>/simulations/<id>.json` per simulation; its
 * run is the folder. A results file announces its tasks x `info.num_trials`
 * trials (tau2-results): the ones with no simulation enter `total` as missing.
 *
 * Status from `termination_reason` (the `TerminationReason` enum of
 * `src/tau2/data_model/simulation.py`), kept as `status_detail` whatever it maps to:
 * a normal end (`user_stop`, `agent_stop`) lets `reward_info.reward` decide
 * (1 -> success, else failure); see TERMINATION_STATUS for the others.
 */
import { countToolCalls, folderOf, isFullReward, numberOf, objectOf, stemOf, textOf } from "./shared.js";
import type { FieldRead, FormatAdapter } from "./types.js";

/**
 * The terminations that decide the status by themselves. The step and error
 * limits end a run the agent did not finish (tau2 scores them 0): failures.
 * `timeout` is tau2's wall-clock budget per simulation. `user_error` is the user
 * simulator's, part of the environment. `infrastructure_error` and
 * `context_window_exceeded` are what tau2 itself leaves out of its metric
 * denominators (`NON_EVALUABLE_TERMINATION_REASONS`): aborted, fault
 * environment, so the `attributable` denominator matches tau2's own.
 */
export const TERMINATION_STATUS: Readonly<Record<string, string>> = {
  max_steps: "failure",
  too_many_errors: "failure",
  agent_error: "failure",
  timeout: "timeout",
  user_error: "aborted",
  infrastructure_error: "aborted",
  context_window_exceeded: "aborted",
  unexpected_error: "aborted",
};

/** The terminations of a conversation that ended by itself: the reward decides. */
export const NORMAL_ENDS: readonly string[] = ["user_stop", "agent_stop"];

export const tau2BenchFormat: FormatAdapter = {
  name: "tau2-bench",
  describes: "tau2-bench results: simulations[] with termination_reason, reward_info, times and costs",
  success:
    "`reward_info.reward` = 1 on a 0-1 scale, on a normal end (`termination_reason` user_stop or agent_stop); a run with a reward outside [0, 1] is unscored, decided only by `--success-threshold X` (reward >= X)",
  traits: { scoreScale: "0-1" },
  containerKeys: ["simulations"],
  emptyContainerKeys: ["simulations"],
  shapes: [{ kind: "a simulation", required: { task_id: "any", termination_reason: "string", reward_info: "any" } }],
  adapt(record, context) {
    const reason = (record.termination_reason as string).trim().toLowerCase();
    const reward = numberOf(objectOf(record.reward_info)?.reward);
    const agentInfo = objectOf(objectOf(context.header?.info)?.agent_info);
    const out: Record<string, unknown> = {
      run_id: runOf(context.source, context.header != null),
      task_id: record.task_id,
      trial: record.trial ?? 0,
      attempt: 1,
      status_detail: reason,
      started_at: record.start_time ?? null,
      ended_at: record.end_time ?? null,
      score: reward,
      cost_usd: record.agent_cost ?? null,
      llm_tokens: agentTokens(record.messages),
      tool_call_count: countToolCalls(record.messages),
      agent: textOf(agentInfo?.implementation),
      model: textOf(agentInfo?.llm),
      // the user simulator's spend, not the agent's
      user_cost_usd: numberOf(record.user_cost),
      simulation_id: record.id ?? null,
    };
    const decided = TERMINATION_STATUS[reason];
    if (decided) return { attempts: [{ ...out, status: decided }] };
    if (!NORMAL_ENDS.includes(reason)) return { attempts: [{ ...out, status: reason }] }; // unrecognized, reported by value
    if (reward === null) return { attempts: [{ ...out, status: "aborted", grader_error: "no reward_info.reward on a finished simulation" }] };
    return { attempts: [{ ...out, status: isFullReward(reward) ? "success" : "failure", score_decides: true }] };
  },
};

/** The agent's tokens: prompt + completion of every assistant message with `usage` (the user simulator's are not counted). */
function agentTokens(messages: unknown): number | null {
  if (!Array.isArray(messages)) return null;
  let n = 0;
  let seen = false;
  for (const m of messages) {
    const msg = objectOf(m);
    const usage = objectOf(msg?.usage);
    if (msg?.role !== "assistant" || !usage) continue;
    seen = true;
    n += (numberOf(usage.prompt_tokens) ?? 0) + (numberOf(usage.completion_tokens) ?? 0);
  }
  return seen ? n : null;
}

/**
 * The run a simulation belongs to: a results file's name when the simulation is
 * an element of one (it has the file's header; tau2 saves them as
 * `data/simulations/<run>.json`), or in the dir layout, a file of its own
 * (`<run>/simulations/<id>.json`), the run folder's name.
 */
export function runOf(source: string, inResultsFile: boolean): string {
  const own = source.slice(source.lastIndexOf("!") + 1).replace(/\\/g, "/");
  return !inResultsFile && /(^|\/)simulations\/[^/]+$/i.test(own) ? (folderOf(source, 2) ?? stemOf(source)) : stemOf(source);
}

const RESULTS_READS: readonly FieldRead[] = [
  {
    source: "tasks[].id x info.num_trials",
    canonical: "(missing trials)",
    note: "the trials the run announces: those with no simulation enter `total` as missing (environment)",
  },
  { source: "(path) results.json", canonical: "run_id", note: "the folder of a dir layout's results.json (its simulations/ beside it); else the file's name" },
  { source: "simulations: [] (announcing tasks)", canonical: "-", note: "a warning: every announced trial is missing" },
  { source: "info.agent_info.implementation, info.agent_info.llm", canonical: "agent, model", note: "for the run's simulations that name none" },
];

export const tau2ResultsFormat: FormatAdapter = {
  name: "tau2-results",
  describes:
    "tau2-bench results.json of the dir layout (info, tasks, simulation_index; simulations/*.json beside it), or a results file whose simulations are empty",
  reads: RESULTS_READS,
  shapes: [
    {
      kind: "a results file's header (simulations empty or beside it)",
      required: { "info.num_trials": "any", tasks: "array" },
      optional: { simulations: { empty: true } },
      absent: ["task_id"],
    },
  ],
  adapt(record, context) {
    const info = objectOf(record.info) ?? {};
    const agentInfo = objectOf(info.agent_info);
    const trials = numberOf(info.num_trials);
    const tasks = (record.tasks as unknown[])
      .map((t) => objectOf(t)?.id)
      .filter((id) => id !== undefined && id !== null)
      .map(String);
    const split = /(^|[/!\\])results\.json$/i.test(context.source) && !Array.isArray(record.simulations);
    const run = split ? (folderOf(context.source) ?? stemOf(context.source)) : stemOf(context.source);
    const owed = trials !== null && trials >= 1 ? tasks.map((task_id) => ({ task_id, trials: Math.floor(trials) })) : [];
    const empty = Array.isArray(record.simulations) && owed.length > 0;
    return {
      metadata: {
        run_id: run,
        agent: textOf(agentInfo?.implementation),
        model: textOf(agentInfo?.llm),
        concurrency: null,
        owed,
        warning: empty
          ? `${context.source}: announces ${tasks.length} tasks x ${Math.floor(trials as number)} trials but its simulations are empty: the ${tasks.length * Math.floor(trials as number)} trials are counted missing`
          : undefined,
      },
    };
  },
};
