/**
 * The comparison in words, shared by the text, markdown and JSON renderers of
 * `denom compare`: differences in points, the ranking-flip sentence, what a
 * removal reason means in plain words.
 */
import type { CompareCell, Comparison, Flip, Removed, SideFigure, TieGroupMember, TieGroups } from "../commands/compare.js";
import { plural, ratio } from "../number-format.js";

/** What a cell's A and B columns and their means are (every rendering of the cells says it), one clause a line. */
export const SIDE_FIGURES_NOTE: readonly string[] = [
  "A, B: successes over the kept trials of the paired tasks, and that share",
  "A mean, B mean: the mean over tasks of each task's share, which B - A compares",
];

/** A side's fraction beside its own share (`5/21 23.8%`), never beside the mean of per-task shares. */
export function sideFraction(side: SideFigure): string {
  return ratio({ successes: side.successes, count: side.count, rate: side.trial_rate });
}

/** 0.25 -> "+25.0 points"; null -> "n/a". A difference of fractions is a difference of percentage points. */
export function points(d: number | null | undefined, unit = " points"): string {
  if (d === null || d === undefined) return "n/a";
  const v = d * 100;
  return `${v > 0 ? "+" : v < 0 ? "-" : "±"}${Math.abs(v).toFixed(1)}${unit}`;
}

/** [lo, hi] in points: "[-17.6, +67.6]"; null -> "n/a". */
export function pointsInterval(ci: [number, number] | null): string {
  return ci ? `[${points(ci[0], "")}, ${points(ci[1], "")}]` : "n/a";
}

/** The test's name as the output shows it. */
export function testName(c: Pick<CompareCell, "test">): string {
  return c.test === "mcnemar_exact" ? "McNemar exact" : c.test === "z" ? "z (approx.)" : "n/a";
}

/** A p-value: "0.453", "<0.001", "n/a". */
export function pValue(p: number | null): string {
  if (p === null) return "n/a";
  return p < 0.001 ? "<0.001" : p.toFixed(3);
}

/** What a removal reason means, in words: "an external API", "timeouts (loop)", "missing records". */
export function lostTo(r: Pick<Removed, "fault" | "status" | "status_detail" | "timeout_cause">): string {
  const detail = r.status_detail ?? "";
  if (r.status === "timeout")
    return r.timeout_cause === "queue"
      ? "queue waits"
      : r.timeout_cause === "external"
        ? "timeouts waiting on an external service"
        : `timeouts (cause ${r.timeout_cause ?? "unknown"})`;
  if (/external|api/i.test(detail)) return "an external API";
  if (detail === "grader_error") return "grader errors";
  if (r.status === "missing") return "missing records (expected, never run)";
  if (r.fault === "task") return "invalid tasks";
  if (r.fault === "unknown") return "unrecognized statuses";
  return `environment failures (${detail || r.status})`;
}

/** "A lost 6 trials to an external API" for one side's removals, or null when it lost none. */
function sideLoss(letter: string, removed: Removed[]): string | null {
  if (!removed.length) return null;
  const byPhrase = new Map<string, number>();
  for (const r of removed) byPhrase.set(lostTo(r), (byPhrase.get(lostTo(r)) ?? 0) + r.trials);
  const parts = [...byPhrase.entries()].sort((x, y) => y[1] - x[1]).map(([phrase, n], i) => `${i === 0 ? plural(n, "trial") : n} to ${phrase}`);
  return `${letter} lost ${parts.join(", ")}`;
}

/** Why one flip happens, in words (after the colon of the sentence). */
export function flipReason(f: Flip): string {
  if (f.rescued) return `on first try vs after retries: retries rescued ${plural(f.rescued.baseline, "trial")} for A and ${f.rescued.candidate} for B`;
  const losses = [sideLoss("A", f.removed.baseline), sideLoss("B", f.removed.candidate)].filter((x): x is string => x !== null);
  // the trials removed between the two denominators are what changes the tasks each cell pairs
  return losses.length
    ? losses.join("; ")
    : `the tasks entering ${f.trail.basis}/${f.trail.denominator} differ from those of ${f.lead.basis}/${f.lead.denominator}`;
}

/**
 * The ranking-flip sentence of the most telling flip: "B leads on final/total
 * (+25.0 points) but trails on final/attributable (-33.3 points): A lost 6 trials
 * to an external API." Null without a flip.
 */
export function flipSentence(c: Comparison): string | null {
  const f = c.flips[0];
  if (!f) return null;
  const more = c.flips.length > 1 ? ` (${plural(c.flips.length, "pair")} of cells flip in all)` : "";
  return `B leads on ${f.lead.basis}/${f.lead.denominator} (${points(f.lead.difference)}) but trails on ${f.trail.basis}/${f.trail.denominator} (${points(f.trail.difference)}): ${flipReason(f)}.${more}`;
}

/** One side named: "A (baseline): runs/a.jsonl · agent agent-a · model m". */
export function sideName(side: Comparison["baseline"]): string {
  const extra: string[] = [];
  if (side.agents.length) extra.push(`${side.agents.length === 1 ? "agent" : "agents"} ${side.agents.join(", ")}`);
  if (side.models.length) extra.push(`${side.models.length === 1 ? "model" : "models"} ${side.models.join(", ")}`);
  // a label that already names the agent or the model (the default names) is not repeated
  const shown = extra.filter((e) => !side.label.split(" · ").includes(e));
  return `${side.letter} (${side.role}): ${side.label}${shown.length ? ` · ${shown.join(" · ")}` : ""} · ${plural(side.tasks, "task")}, ${plural(side.trials, "trial")}`;
}

/**
 * The --fail-if-worse verdict as one line, or null without the flag; it says
 * what the exit code says: --strict's refusal (exit 1), an empty side, too few
 * paired tasks, or B worse (exit 4), else ok.
 */
export function failIfWorseLine(c: Comparison): string | null {
  const f = c.fail_if_worse;
  if (!f) return null;
  const gate = `--fail-if-worse ${f.cell}`;
  if (f.strict_failed) return `${gate}: FAIL, --strict is set and the inputs had rejected lines or broken sources (exit 1)`;
  if (f.empty_side) return `${gate}: FAIL, nothing compared: ${f.empty_side === "baseline" ? "A (baseline)" : "B (candidate)"} has no trial (exit 4)`;
  if (f.tasks < f.min_tasks) return `${gate}: FAIL, ${plural(f.tasks, "paired task")} in ${f.cell}, fewer than --min-tasks ${f.min_tasks} (exit 4)`;
  if (f.verdict === "nothing compared")
    return `${gate}: FAIL, nothing compared: ${plural(f.tasks, "paired task")} in ${f.cell}, and an interval needs 2 (exit 4)`;
  if (f.worse) return `${gate}: FAIL, B is worse than A (95% CI ${pointsInterval(f.ci95)} points, entirely below 0) (exit 4)`;
  if (f.inconclusive_fails && f.verdict === "inconclusive")
    return `${gate} --fail-if-inconclusive: FAIL, inconclusive: the 95% CI ${pointsInterval(f.ci95)} points spans 0 (exit 4)`;
  return `${gate}: ok, B is not significantly worse (95% CI ${pointsInterval(f.ci95)} points)`;
}

/**
 * The verdict a reader quotes, in one sentence: on the gated cell, else on
 * final/total. Better or worse only when the 95% interval excludes 0;
 * inconclusive says what these tasks can detect (mde80) and how many paired
 * tasks the observed difference would need; nothing compared says why.
 */
export function headlineSentence(c: Comparison): string {
  const h = c.headline;
  const a = `A (${c.baseline.label})`;
  const b = `B (${c.candidate.label})`;
  const over = `over ${plural(h.tasks, "paired task")}`;
  if (h.verdict === "nothing compared") return `${h.cell}: nothing compared: ${plural(h.tasks, "paired task")}, and an interval needs 2`;
  if (h.verdict === "better" || h.verdict === "worse")
    return `${h.cell}: ${b} is ${h.verdict} than ${a}: ${points(h.difference)}, 95% CI ${pointsInterval(h.ci95)}, ${over}`;
  const needed =
    h.tasks_needed === null ? "the difference is 0" : `about ${plural(h.tasks_needed, "paired task")} would detect ${points(h.difference)} (80% power)`;
  return `${h.cell}: inconclusive: B - A = ${points(h.difference)}, 95% CI ${pointsInterval(h.ci95)} spans 0, ${over}; these tasks detect ${h.mde80 === null ? "n/a" : `${(h.mde80 * 100).toFixed(1)} points`} or more (mde80); ${needed}`;
}

/** A group's name in the tie groups: its value, `(none)` for records without one. */
export function tieName(m: Pick<TieGroupMember, "value">): string {
  return m.value ?? "(none)";
}

/** The ranks the tests allow a group: `1` when only one, else `1-3`. */
export function rankRange(m: Pick<TieGroupMember, "rank_best" | "rank_worst">): string {
  return m.rank_best === m.rank_worst ? String(m.rank_best) : `${m.rank_best}-${m.rank_worst}`;
}

/** The tie groups in one sentence: `2 tie groups in final/total: {alpha, bravo}, {charlie, delta}`. */
export function tieGroupsSentence(t: TieGroups): string {
  const groups = new Map<number, string[]>();
  for (const m of t.groups) groups.set(m.tie_group, [...(groups.get(m.tie_group) ?? []), tieName(m)]);
  const listed = [...groups.values()].map((names) => `{${names.join(", ")}}`).join(", ");
  return `${plural(groups.size, "tie group")} in ${t.basis}/${t.denominator}: ${listed}`;
}

/** How the tie groups are made, one clause a line (every rendering says it). */
export function tieGroupsNote(t: TieGroups): string[] {
  return [
    `every pair of the ${t.groups.length} groups compared as above (${plural(t.pairs, "pair")}), p Holm-adjusted over all of them; separable: adjusted p below 0.05`,
    "rank: 1 + the groups ahead that it is separable from, to the number of groups - those behind it is separable from",
    "tie group: in the order of rates, a group joins the tie group before it unless it is separable from that group's first",
  ];
}
