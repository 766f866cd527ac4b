/**
 * The canonical attempt record itself (docs/inputs.md, the canonical attempt record): passed through as is;
 * field aliases and types are checked by ../canonical.ts.
 */
import { ATTEMPT_FIELDS } from "./canonical-record.js";
import type { FormatAdapter } from "./types.js";

/** Every canonical field name and alias (`task_id`, `instance_id`, `epoch`, ...). */
export const CANONICAL_NAMES: ReadonlySet<string> = new Set(ATTEMPT_FIELDS.flatMap((f) => [f.field, ...(f.aliases ?? [])]));

/** What makes a record look like an attempt: a task id (or an alias) or a status. */
const ATTEMPT_MARKS = ["task_id", ...(ATTEMPT_FIELDS.find((f) => f.field === "task_id")?.aliases ?? []), "status"];

export const canonicalFormat: FormatAdapter = {
  name: "canonical",
  describes: "denom's attempt record: one JSON object per attempt (docs/formats.md lists its fields)",
  success: "`status` success or one of its aliases (succeeded, pass, passed, resolved, correct, ok); `score` never decides on its own",
  reads: ATTEMPT_FIELDS.map((f) => ({
    source: [f.field, ...(f.aliases ?? [])].join(", "),
    canonical: f.field,
    note: f.doc,
  })),
  // A record that looks like an attempt: a malformed one is then a reject naming
  // the field (`status: missing`); a record with neither is not this format's.
  // the generic record: read only when no harness adapter's shape fits (nor nearly fits) it
  shapes: ATTEMPT_MARKS.map((k) => ({ kind: `an attempt (${k})`, required: { [k]: "any" } })),
  adapt: (record) => ({ attempts: [record] }),
};
