/** Text for `denom formats`: each adapter, then its fields as source -> canonical. */
import type { FormatsData } from "../commands/formats.js";

/** One block per adapter: name, kind, description, and a line per field read. */
export function renderFormatsText(data: FormatsData): string {
  const blocks = data.formats.map((f) => {
    const lines = [`${f.name} (${f.kind})`, `  ${f.describes}`];
    if (f.reads.length === 0) lines.push("  fields: (not declared)");
    for (const r of f.reads) lines.push(`  ${r.source} -> ${r.canonical}${r.note ? `: ${r.note}` : ""}`);
    return lines.join("\n");
  });
  const tail =
    "Detection: a JSON object document is offered to the document formats by its first entries; other records to the record formats, one by one, canonical last.\n" +
    "A source no format recognises is an error (exit 1); --input-format NAME reads every source with that format.";
  return `${blocks.join("\n\n")}\n\n${tail}\n`;
}

/**
 * `denom formats --format md`: one section per adapter with its fields as a
 * markdown table (`| \`source\` | canonical | note |`, pipes escaped), as
 * docs/formats.md shows them.
 */
export function renderFormatsMarkdown(data: FormatsData): string {
  const cell = (s: string) => s.replaceAll("|", "\\|");
  const blocks = data.formats.map((f) => {
    const lines = [`### \`${f.name}\` (${f.kind})`, "", cell(f.describes), ""];
    if (f.reads.length === 0) lines.push("Fields: not declared.");
    else {
      lines.push("| source field | canonical field | how denom reads it |", "|---|---|---|");
      for (const r of f.reads) lines.push(`| \`${r.source}\` | ${r.canonical} | ${cell(r.note)} |`);
    }
    return lines.join("\n");
  });
  return `${blocks.join("\n\n")}\n`;
}
