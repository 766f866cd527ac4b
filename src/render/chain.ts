/**
 * The denominators of the chain in order, as the rows of a grid name them (queries/reference/denominators.sql
 * through rate_cells: every grid holds each basis over each denominator, in step order), so a
 * renderer shows every denominator the session defines and no list of its own.
 */
export function denominatorsOf(rows: readonly { denominator: string }[]): string[] {
  return [...new Set(rows.map((r) => r.denominator))];
}
