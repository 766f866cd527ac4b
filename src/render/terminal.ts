/**
 * Text for a terminal: a control character that came from an input
 * (a task id, a status, a file name) is shown escaped, `\x1b[2J`, never sent
 * raw, so a record cannot clear the screen, retitle the window or hide a line.
 * Only the text renderers and stderr use this: JSON, CSV, Parquet and the
 * database keep the exact text.
 */

/**
 * C0 controls (ESC, BEL, backspace, CR, newline, tab...), DEL, C1 controls
 * (U+0080..U+009F, CSI among them) and the bidirectional embeddings, overrides
 * and isolates (U+202A..U+202E, U+2066..U+2069), which reorder what a line shows.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same without the newline: a message on stderr may span lines. */
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every control character written as an escape: ESC -> `\x1b`, newline -> `\n`, U+202E -> `\u202e`. */
export function escapeControls(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, escapeOne) : text;
}

/** A message for stderr: as escapeControls, but newlines stay (the message's own line breaks). */
export function escapeMessage(text: string): string {
  CONTROL_BUT_NEWLINE.lastIndex = 0;
  return CONTROL_BUT_NEWLINE.test(text) ? text.replace(CONTROL_BUT_NEWLINE, escapeOne) : text;
}

/**
 * A copy of `value` (the data a command returned) with every string in it,
 * keys too, passed through escapeControls; numbers, booleans and null as they
 * are. For the text renderers, which then add their own colour.
 */
export function terminalSafe<T>(value: T): T {
  if (typeof value === "string") return escapeControls(value) as T;
  if (Array.isArray(value)) return value.map((v) => terminalSafe(v)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[escapeControls(k)] = terminalSafe(v);
    return out as T;
  }
  return value;
}
