/**
 * GitHub-flavoured markdown pieces every markdown renderer shares: a table, the
 * escape of text from the inputs (a `|` or a `*` in a task id cannot break a
 * table or the emphasis), a code span that holds any text, and the indented
 * lines of a text renderer as a nested list.
 */

/** A GitHub markdown table; cells are written as given (escape or code() them first). */
export function mdTable(head: string[], rows: (string | number)[][], align: ("left" | "right")[]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => String(c)).join(" | ")} |`;
  return [line(head), line(align.map((a) => (a === "right" ? "---:" : "---"))), ...rows.map(line)].join("\n");
}

/** Backslash-escapes what markdown would read as markup or a table border; newlines become spaces. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/[\\`*_[\]<|~]/g, (ch) => `\\${ch}`);
}

/** A code span that holds any text: a fence longer than the longest backtick run inside, `|` escaped for tables. */
export function code(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat.replaceAll("|", "\\|")}${pad}${fence}`;
}

/**
 * A text renderer's block as markdown: its first line a heading (`level` #s),
 * each further line a list item, nested one level per two spaces of indent
 * beyond the shallowest; text escaped, a leading "1." kept as text (not a new
 * ordered list).
 */
export function markdownBlock(lines: readonly string[], level = 4): string {
  if (!lines.length) return "";
  const [head, ...rest] = lines;
  const indents = rest.map((l) => l.length - l.trimStart().length);
  const base = Math.min(...indents);
  const items = rest.map((l, i) => {
    const depth = Math.min(Math.floor((indents[i] - base) / 2), 3);
    const text = escapeMarkdown(l.trim().replace(/ {2,}/g, " ")).replace(/^(\d+)\./, "$1\\.");
    return `${"  ".repeat(depth)}- ${text}`;
  });
  return [`${"#".repeat(level)} ${escapeMarkdown(head.trim())}`, ...(items.length ? ["", ...items] : [])].join("\n");
}
