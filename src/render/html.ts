/**
 * The pieces of denom's HTML pages (report-html.ts, compare-html.ts): one
 * self-contained page (inline CSS, a Content-Security-Policy that forbids every
 * fetch, no script), sections, a chart beside its table, tables whose cells carry
 * `data-*` attributes naming the figure they show. Every text is HTML-escaped.
 */

/**
 * A table cell: text (escaped when rendered), optional `data-*` attributes, right-aligned
 * when `num`; `quote` marks a cell of the figure to quote (highlighted, `data-quote`);
 * `html` is markup put after the text as it is (built by the renderer, every input text in it escaped).
 */
export interface Cell {
  text: string | number;
  data?: Record<string, string | number>;
  num?: boolean;
  quote?: boolean;
  html?: string;
}
export type CellLike = Cell | string | number;

/**
 * The whole page: `title` as <title> and <h1>, `lead` under it, a navigation line
 * naming each section by `nav[id]` (the id when absent), the sections, a footer.
 */
export function page(title: string, lead: string, sections: string[], nav: Record<string, string>, tool: string): string {
  const links = [...sections.join("").matchAll(/<section id="([^"]+)">/g)].map(([, id]) => `<a href="#${id}">${esc(nav[id] ?? id)}</a>`).join(" · ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${esc(tool)}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>${esc(title)}</h1><p class="lead">${esc(lead)}</p><nav>${links}</nav></header>
<main>
${sections.join("\n")}
</main>
<footer>${esc(tool)} · every figure comes from the SQL views in queries/ · <code>--format json</code> gives the same numbers as data</footer>
</body>
</html>
`;
}

export function section(id: string, heading: string, body: string): string {
  return `<section id="${esc(id)}"><h2>${esc(heading)}</h2>${body}</section>`;
}

/** A chart and its table side by side (stacked when the page is narrow); the table alone when there is no chart. */
export function pair(svg: string, body: string, kind = ""): string {
  if (!svg) return `<div class="pair"><div class="numbers">${body}</div></div>`;
  return `<div class="pair ${kind}"><figure class="chart">${svg}</figure><div class="numbers">${body}</div></div>`;
}

export function num(text: string | number): Cell {
  return { text, num: true };
}

/**
 * A table in a box of its own that scrolls sideways when the table is wider than the
 * page (a phone): the page itself never does. The first column (the row's name)
 * stays in view while the rest scrolls, so put the key columns first.
 */
export function table(head: string[], rows: CellLike[][], id?: string): string {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join("");
  const td = (c: CellLike) => {
    const cell: Cell = typeof c === "object" ? c : { text: c, num: typeof c === "number" };
    const attrs = Object.entries({ ...cell.data, ...(cell.quote ? { quote: "true" } : {}) })
      .map(([k, v]) => ` data-${k}="${esc(String(v))}"`)
      .join("");
    const classes = [cell.num ? "num" : "", cell.quote ? "quote" : ""].filter(Boolean).join(" ");
    return `<td${classes ? ` class="${classes}"` : ""}${attrs}>${esc(String(cell.text))}${cell.html ?? ""}</td>`;
  };
  return `<div class="scroll"><table${id ? ` id="table-${esc(id)}"` : ""}><thead><tr>${th}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map(td).join("")}</tr>`).join("")}</tbody></table></div>`;
}

export function list(lines: string[]): string {
  return lines.length ? `<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>` : "";
}

/** Escapes text for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

const CSS = `
:root { color-scheme: light; --ink: #1d232a; --muted: #5d6873; --rule: #d9dee3; --band: #f4f6f8; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1180px; padding: 24px 28px 40px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 21px; margin: 0 0 4px; }
h1, h2, h3, p, li, nav, summary, footer { overflow-wrap: anywhere; }
h2 { font-size: 17px; margin: 0 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--rule); }
h3 { font-size: 14px; margin: 16px 0 6px; }
.lead { margin: 0 0 8px; font-size: 15px; }
nav { font-size: 12px; color: var(--muted); margin-bottom: 8px; }
nav a { color: #1f5b99; text-decoration: none; }
section { margin: 22px 0 0; }
.pair { display: flex; flex-wrap: wrap; gap: 12px 28px; align-items: flex-start; }
/* the numbers sit beside the chart when their widest table fits there, else under it: the box is as wide as
   its tables (notes and lists, contained, do not widen it; they wrap to the box) */
.pair .numbers { flex: 1 1 auto; min-width: 0; }
.pair .numbers > p, .pair .numbers > ul { contain: inline-size; }
.pair.wide { flex-direction: column; }
.pair > div { min-width: 0; max-width: 100%; }
.pair.wide .numbers { flex: none; width: 100%; }
figure.chart { margin: 0; flex: 0 1 auto; max-width: 100%; }
figure.chart svg { max-width: 100%; height: auto; }
figure.chart figure { margin: 0; }
.scroll { max-width: 100%; overflow-x: auto; margin: 0 0 8px; }
table { border-collapse: collapse; font-size: 12.5px; }
.scroll th:first-child, .scroll td:first-child { position: sticky; left: 0; z-index: 1; }
.scroll td:first-child { background: #fff; }
td.quote { font-weight: 700; background: #fff4cc; }
th, td { padding: 3px 9px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
thead th { background: var(--band); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
#table-sources td[data-kind="sha256"] { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 11px; white-space: nowrap; }
#table-timeout-evidence td[data-figure="evidence"] { min-width: 200px; max-width: 420px; }
#table-timeout-evidence td[data-figure="ids"] { min-width: 220px; max-width: 520px; }
#table-timeout-evidence td, #table-histogram td { padding: 1px 9px; font-size: 12px; }
details summary { cursor: pointer; }
.ids { margin: 2px 0 0; padding-left: 16px; }
ul { margin: 6px 0 8px; padding-left: 20px; }
li { margin: 1px 0; }
.note { color: var(--muted); font-size: 12.5px; margin: 4px 0 8px; }
.defs p { margin: 2px 0 6px; font-size: 12.5px; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
footer { margin-top: 30px; font-size: 12px; color: var(--muted); border-top: 1px solid var(--rule); padding-top: 8px; }
@media (max-width: 640px) {
  body { padding: 14px 12px 28px; }
  h1 { font-size: 18px; }
  .pair .numbers { flex-basis: 100%; }
}
@page { size: A4; margin: 12mm 11mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav { display: none; }
  h2 { break-after: avoid; }
  figure.chart, table, .pair > div { break-inside: avoid; }
  .scroll { overflow: visible; }
  .scroll th:first-child, .scroll td:first-child { position: static; }
  #table-timeout-evidence, #table-rejects, #table-histogram { break-inside: auto; }
  .pair { gap: 8px 18px; }
  table { font-size: 8.5pt; }
  a { color: inherit; text-decoration: none; }
}
`;
