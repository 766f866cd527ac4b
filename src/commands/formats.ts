/**
 * `denom formats`: the input formats denom reads, each with the fields it reads
 * and the canonical fields they become (the adapters' own declarations,
 * src/formats/). Reads no input.
 */
import { ALL_FORMATS, type FieldRead } from "../formats/index.js";
import { describeDocumentShape, describeShape } from "../formats/shape.js";
import { isDocumentAdapter } from "../formats/types.js";

/** One adapter as listed. */
export interface FormatInfo {
  /** what `--input-format` takes, and what the meta block shows per source */
  name: string;
  /** `document`: claims a whole JSON object document by its first entries; `record`: claims records one by one */
  kind: "record" | "document";
  describes: string;
  /** what decides a success (the field and the rule); null for a format whose records hold no attempt */
  success: string | null;
  /** the scale of the number whose rule decides a success (FormatTraits.scoreScale: `0-1`); null when booleans or id lists decide */
  score_scale: string | null;
  /** the shapes it claims, one line each (`a TrialResult: {task_name: string, ...}`): detection is exact */
  shapes: string[];
  /** the fields read; empty when the adapter declares none */
  reads: FieldRead[];
  /** what the meta block says whenever the format read a source (e.g. that the harness records no retries) */
  notes: string[];
}

export interface FormatsData {
  formats: FormatInfo[];
}

/** Every adapter, document adapters first. */
export function runFormats(): FormatsData {
  return {
    formats: ALL_FORMATS.map((f) => ({
      name: f.name,
      kind: f.kind ?? "record",
      describes: f.describes,
      success: f.success ?? null,
      score_scale: ("traits" in f && f.traits?.scoreScale) || null,
      shapes: isDocumentAdapter(f) ? [describeDocumentShape(f.shape)] : f.shapes.map(describeShape),
      reads: [...(f.reads ?? [])],
      notes: "notes" in f && f.notes ? [...f.notes] : [],
    })),
  };
}
