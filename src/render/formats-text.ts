/** Text for `denom formats`: each adapter, then its fields as source -> canonical. */
import type { FormatsData } from "../commands/formats.js";

/** One block per adapter: name, kind, description, and a line per field read. */
export function renderFormatsText(data: FormatsData): string {
  const blocks = data.formats.map((f) => {
    const lines = [`${f.name} (${f.kind})`, `  ${f.describes}`, ...f.shapes.map((s) => `  claims ${s}`)];
    if (f.success !== null) lines.push(`  success when: ${f.success}`);
    if (f.score_scale !== null) lines.push(`  score scale: ${f.score_scale} (a run off it is unscored until --success-threshold X decides)`);
    if (f.reads.length === 0) lines.push("  fields: (not declared)");
    for (const r of f.reads) lines.push(`  ${r.source} -> ${r.canonical}${r.note ? `: ${r.note}` : ""}`);
    return lines.join("\n");
  });
  const tail =
    "Detection is exact: a JSON object document is a document format's when its first entries fit that format's shape; a record is the record format's whose shape it fits (canonical only when no other's does).\n" +
    "Two formats that claim a file, or a file close to one format's shape without fitting it, are an error (exit 1) naming them: --input-format NAME settles it.\n" +
    "A file given as an input that no format recognises is an error (exit 1); inside a folder or an archive it is skipped and listed (meta.skipped_files).\n" +
    "--input-format NAME reads every source with that format; denom formats --format md prints the mapping tables of docs/formats.md.";
  return `${blocks.join("\n\n")}\n\n${tail}\n`;
}
