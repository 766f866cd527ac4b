/** Text for the export, ingest and `query --schema` commands. */
import type { ExportData } from "../commands/export.js";
import type { IngestData } from "../commands/ingest.js";
import type { Relation } from "../commands/query.js";
import { plural } from "../number-format.js";

/** "wrote 100 rows of trials to trials.csv (csv, 31 columns); meta block in trials.csv.meta.json" (a file, not stdout) */
export function renderExportText(data: ExportData): string {
  return `wrote ${plural(data.rows, "row")} of ${data.what} to ${data.file} (${data.format}, ${plural(data.columns.length, "column")}); meta block in ${data.meta_file}\n`;
}

/** What an ingest added and skipped, and what the file holds afterwards. */
export function renderIngestText(data: IngestData): string {
  const lines: string[] = [];
  if (data.committed) {
    const records = data.added.reduce((n, s) => n + s.records, 0);
    lines.push(`${data.db}: added ${plural(data.added.length, "source")} (${plural(records, "record")}, ${data.rejected} rejected)`);
    for (const s of data.added)
      lines.push(
        `  ${s.name}  sha256 ${s.sha256.slice(0, 12)}  ${s.lines} lines = ${s.records} records; ${plural(s.attempts, "attempt")}${s.adapter ? `; read as ${s.adapter}` : ""}`,
      );
  } else {
    const why = [
      data.rejected ? `${plural(data.rejected, "line")} rejected` : "",
      data.broken_sources ? `${plural(data.broken_sources, "source")} broken part-way` : "",
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(`${data.db}: nothing added (--strict and ${why})`);
  }
  if (data.skipped.length) {
    lines.push(`skipped ${plural(data.skipped.length, "source")} already in the ${data.lake ? "lake" : "database"} (same sha256; not counted again):`);
    for (const s of data.skipped) lines.push(`  ${s.name}  same as ${s.same_as}  sha256 ${s.sha256.slice(0, 12)}`);
  }
  const d = data.database;
  lines.push(
    `${data.db} holds ${plural(d.sources, "source")}: ${plural(d.records, "record")}, ${plural(d.attempts, "attempt")} (denom report ${data.lake ? "" : "--db "}${data.db} for the figures)`,
  );
  return `${lines.join("\n")}\n`;
}

/** Each table and view with its columns and their types, wrapped to 80 columns. */
export function renderSchemaText(relations: Relation[]): string {
  const blocks = relations.map((r) => {
    const lines = [`${r.name} (${r.kind}, ${plural(r.columns.length, "column")})`];
    let line = " ";
    for (const [i, c] of r.columns.entries()) {
      const item = ` ${c.name} ${c.type}${i < r.columns.length - 1 ? "," : ""}`;
      if (line.length + item.length > 80 && line.trim()) {
        lines.push(line);
        line = " ";
      }
      line += item;
    }
    lines.push(line);
    return lines.join("\n");
  });
  return `${blocks.join("\n\n")}\n`;
}
