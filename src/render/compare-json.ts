/**
 * `denom compare --json`: with two inputs one object, the comparison itself
 * (`{baseline, candidate, coverage, cells, ranking_flips, ...}`, docs/compare.md); with --by an object whose `comparisons` holds one such object per
 * candidate group. Each comparison carries `ranking_flip_text`, the sentence
 * the text prints (null without a flip), and `headline_text`, the verdict's
 * sentence (headlineSentence). With --by, `tie_groups` (two candidates or more,
 * else null) with `text`, its sentence.
 */
import type { CompareData } from "../commands/compare.js";
import { flipSentence, headlineSentence, tieGroupsSentence } from "./compare-words.js";
import { renderJson } from "../json.js";

export function renderCompareJson(data: CompareData): string {
  const { comparisons, tie_groups, ...rest } = data;
  const shaped = comparisons.map((c) => ({ ...c, ranking_flip_text: flipSentence(c), headline_text: headlineSentence(c) }));
  if (data.mode === "inputs" && shaped.length === 1) return renderJson({ ...shaped[0], ...rest });
  // tie groups with --by only (null with one candidate), with their sentence as the text prints it
  const ties = tie_groups ? { ...tie_groups, text: tieGroupsSentence(tie_groups) } : null;
  return renderJson({ ...rest, comparisons: shaped, tie_groups: ties });
}
