/**
 * The canonical attempt record itself (DESIGN section 2): passed through as is;
 * field aliases and types are checked by ../canonical.ts.
 */
import type { FormatAdapter } from "./types.js";

export const canonicalFormat: FormatAdapter = {
  name: "canonical",
  describes: "denom's attempt record: one JSON object per attempt (DESIGN section 2)",
  detect: () => true,
  adapt: (record) => ({ attempts: [record] }),
};
