/**
 * The one output layer: every command's output flags (--format, --json,
 * -o/--out, -q/--quiet, --no-color) mean the same, and this module alone
 * chooses the renderer a command's data goes through and where the text goes
 * (stdout, or -o FILE written whole through a temporary file). Commands return
 * data; renderers turn it into text; src/cli.ts only declares the flags.
 *
 * RENDERERS lists, per command, its output formats in the order --help shows
 * them (the first is the default) and the renderer of each, imported on demand
 * so that `--help` loads none of them and never DuckDB.
 */
import type { AuditData } from "../commands/audit.js";
import type { CompareData } from "../commands/compare.js";
import type { FormatsData } from "../commands/formats.js";
import type { GateData } from "../commands/gate.js";
import type { IngestData } from "../commands/ingest.js";
import type { QueryRows, Relation } from "../commands/query.js";
import type { ReportData } from "../commands/report.js";
import type { TimeoutsData } from "../commands/timeouts.js";
import type { CopyFormat } from "../db/copy.js";
import { DataError, UsageError } from "../errors.js";
import { formatNamed } from "../formats/index.js";
import { type Io, Notices, useColor, writeFileAtomic } from "../io.js";
import { shortened, terminalData, terminalSafe } from "./terminal.js";

/** What a renderer is told besides the data. */
export interface RenderContext {
  /** colour and bold allowed (a TTY, no NO_COLOR, no TERM=dumb, no --no-color, not -o FILE) */
  color: boolean;
}

/** The data each command hands to its renderers. */
export interface CommandData {
  report: ReportData;
  timeouts: TimeoutsData;
  /** `single`: one --claim and no --claims file, whose JSON is the one audit object, not an array */
  audit: AuditData & { single?: boolean };
  compare: CompareData;
  gate: GateData;
  /** `names`: the formats asked for (markdown: only their sections; all when empty) */
  formats: FormatsData & { names?: readonly string[] };
  ingest: IngestData;
  /** the rows of a query, the schema (--schema), or rows already written as CSV by DuckDB */
  query: { rows: QueryRows } | { schema: Relation[] } | { csv: string };
}

export type CommandName = keyof CommandData;

type Renderer<D> = (data: D, context: RenderContext) => string;
type Renderers<D> = Record<string, () => Promise<Renderer<D>>>;

const json = async <D>(pick: (d: D) => unknown = (d) => d): Promise<Renderer<D>> => {
  const { renderJson } = await import("../json.js");
  return (d) => renderJson(pick(d));
};

/** Per command: output format -> its renderer (text and markdown renderers get terminal-safe data: no raw escape from an input reaches a terminal; they and HTML get every string shortened to SHOWN_MAX). */
const RENDERERS: { [K in CommandName]: Renderers<CommandData[K]> } = {
  report: {
    table: async () =>
      (
        (m) => (d, c) =>
          m.renderReportText(terminalSafe(d), c)
      )(await import("./report-text.js")),
    json: async () =>
      (
        (m) => (d) =>
          m.renderReportJson(d)
      )(await import("./report-json.js")),
    md: async () =>
      (
        (m) => (d) =>
          m.renderReportMarkdown(terminalSafe(d))
      )(await import("./report-markdown.js")),
    html: async () =>
      (
        (m) => (d) =>
          m.renderReportHtml(shortened(d))
      )(await import("./report-html.js")),
  },
  timeouts: {
    table: async () =>
      (
        (m) => (d, c) =>
          m.renderTimeoutsText(terminalSafe(d), c)
      )(await import("./timeouts-text.js")),
    json: () => json((d) => d.timeouts),
    md: async () =>
      (
        (m) => (d) =>
          m.renderTimeoutsMarkdown(terminalSafe(d))
      )(await import("./timeouts-markdown.js")),
  },
  audit: {
    table: async () =>
      (
        (m) => (d, c) =>
          m.renderAuditText(terminalSafe(d), c)
      )(await import("./audit-text.js")),
    json: () => json((d) => (d.single && d.audits.length === 1 ? d.audits[0] : d.audits)),
    md: async () =>
      (
        (m) => (d) =>
          m.renderAuditMarkdown(terminalSafe(d))
      )(await import("./audit-markdown.js")),
  },
  compare: {
    table: async () =>
      (
        (m) => (d, c) =>
          m.renderCompareText(terminalSafe(d), c)
      )(await import("./compare-text.js")),
    json: async () =>
      (
        (m) => (d) =>
          m.renderCompareJson(d)
      )(await import("./compare-json.js")),
    md: async () =>
      (
        (m) => (d) =>
          m.renderCompareMarkdown(terminalSafe(d))
      )(await import("./compare-markdown.js")),
    html: async () =>
      (
        (m) => (d) =>
          m.renderCompareHtml(shortened(d))
      )(await import("./compare-html.js")),
  },
  gate: {
    table: async () =>
      (
        (m) => (d) =>
          m.renderGateText(terminalSafe(d))
      )(await import("./gate-text.js")),
    json: () => json(),
    md: async () =>
      (
        (m) => (d) =>
          m.renderGateMarkdown(terminalSafe(d))
      )(await import("./gate-markdown.js")),
  },
  formats: {
    table: async () =>
      (
        (m) => (d) =>
          m.renderFormatsText(d)
      )(await import("./formats-text.js")),
    json: () => json(({ names: _names, ...d }) => d),
    md: async () =>
      (
        (m) => (d) =>
          m.renderFormatsMarkdown(d, d.names ?? [])
      )(await import("./formats-markdown.js")),
  },
  ingest: {
    table: async () =>
      (
        (m) => (d) =>
          m.renderIngestText(terminalSafe(d))
      )(await import("./store-text.js")),
    json: () => json(),
  },
  query: {
    table: async () => {
      const [rows, store] = await Promise.all([import("./rows.js"), import("./store-text.js")]);
      return (d, c) => ("rows" in d ? rows.renderRowsTable(terminalSafe(d.rows), c) : "schema" in d ? store.renderSchemaText(terminalSafe(d.schema)) : d.csv);
    },
    json: async () => {
      const [rows, { renderJson }] = await Promise.all([import("./rows.js"), import("../json.js")]);
      return (d) => ("rows" in d ? renderJson(rows.rowsAsObjects(d.rows)) : "schema" in d ? renderJson(d.schema) : d.csv);
    },
    csv: async () => (d) => ("csv" in d ? d.csv : ""),
  },
};

/**
 * `denom export`'s formats: DuckDB writes the rows itself (src/commands/export.ts); its summary is the one thing rendered.
 * Typed as db/copy.ts's CopyFormat (a type import: --help loads no DuckDB module), so a name COPY has not is a compile error.
 */
const EXPORT_FORMATS: readonly CopyFormat[] = ["csv", "tsv", "parquet", "json", "jsonl"];

/** The output formats of a command, the default first (export: the file formats DuckDB writes). */
export function outputFormats(command: CommandName | "export"): readonly string[] {
  return command === "export" ? EXPORT_FORMATS : Object.keys(RENDERERS[command]);
}

/** The output flags every command takes, as commander gives them. */
export interface OutputFlags {
  /** an output format of the command; on commands that read inputs, an input format's name is still taken when unambiguous */
  format?: string;
  json?: boolean;
  /** `-o/--out FILE`; `-` = stdout */
  out?: string;
  quiet?: boolean;
  /** false with --no-color */
  color?: boolean;
}

/** What a command's output flags decide (outputOf). */
export interface Output<K extends CommandName | "export"> {
  /** the output format: one of the command's formats; null for export when neither --format nor -o's extension names one */
  format: string | null;
  /** colour and bold allowed */
  color: boolean;
  /** stderr for warnings, rejected lines and the progress line (silent with --quiet) */
  notices: Notices;
  /** the input format's name that --format gave (its older meaning), when it named one */
  inputFormatName?: string;
  /** writes text to stdout, or whole to the file of -o (through a temporary file); throws DataError when the file cannot be written */
  emit(text: string): void;
  /**
   * The writer of this command's data in the chosen format: loads the
   * renderer (call it early, it loads while DuckDB computes), then renders and
   * emits. Not for export, whose rows DuckDB writes.
   */
  writer(): Promise<K extends CommandName ? (data: CommandData[K]) => void : never>;
}

/**
 * Reads the output flags of `command`. `--format NAME`: an output format of the
 * command, or (commands that read inputs) an input format's name, taken as
 * --input-format with a warning. Throws UsageError for a name that is neither,
 * for a name that is both, and for --json beside another --format.
 */
export function outputOf<K extends CommandName | "export">(flags: OutputFlags, io: Io, command: K, readsInputs: boolean): Output<K> {
  const formats = outputFormats(command);
  const notices = new Notices(io.stderr, Boolean(flags.quiet));
  let format: string | null = null;
  let inputFormatName: string | undefined;
  if (flags.format !== undefined) {
    const isOutput = formats.includes(flags.format);
    const isInput = readsInputs && formatNamed(flags.format) !== undefined;
    if (isOutput && isInput)
      throw new UsageError(`--format ${flags.format} names both an output and an input format; write --input-format ${flags.format} for the input`);
    if (isOutput) format = flags.format;
    else if (isInput) {
      inputFormatName = flags.format;
      notices.print(
        `denom: warning: --format ${flags.format} names an input format: read as --input-format ${flags.format} (--format names the output: ${formats.join(", ")})\n`,
      );
    } else
      throw new UsageError(
        `--format ${flags.format}: no such output; use one of ${formats.join(", ")}${readsInputs ? " (the input's format is --input-format NAME; denom formats lists them)" : ""}`,
      );
  }
  if (flags.json) {
    if (format !== null && format !== "json") throw new UsageError(`--json and --format ${format} ask for two outputs; give one of them`);
    format = "json";
  }
  const toFile = flags.out !== undefined && flags.out !== "-";
  // export without --format takes -o's extension (src/commands/export.ts), the others their first format
  if (format === null && command !== "export") format = formats[0];
  const color = !toFile && useColor(io.stdout, io.env, flags.color !== false);
  // JSON and CSV are data, written exact; on a terminal their control characters are shown escaped
  const escapeData = !toFile && Boolean(io.stdout.isTTY) && (format === "json" || format === "csv");
  const emit = (text: string) => {
    if (!toFile) {
      io.stdout.write(escapeData ? terminalData(text, format === "json") : text);
      return;
    }
    try {
      writeFileAtomic(flags.out as string, text);
    } catch (e) {
      throw new DataError(`cannot write -o ${flags.out}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : (e as Error).message}`);
    }
  };
  const writer = async () => {
    if (command === "export" || format === null) throw new Error(`${command} has no renderer`);
    const render = await (RENDERERS[command as CommandName] as Renderers<unknown>)[format]();
    return (data: unknown) => emit(render(data, { color }));
  };
  return { format, color, notices, inputFormatName, emit, writer } as Output<K>;
}
