/**
 * Text for a terminal: a control character that came from an input
 * (a task id, a status, a file name) is shown escaped, `\x1b[2J`, never sent
 * raw, so a record cannot clear the screen, retitle the window or hide a line.
 * Only the text renderers and stderr use this: JSON, CSV, Parquet and the
 * database keep the exact text.
 *
 * A rendering also bounds each string (an id, a name, a path) to SHOWN_MAX
 * characters with a marker of what was cut: a table pads every row to its
 * widest cell, so one task id of 100,000 characters made `timeouts` print
 * 200 MB.
 */
import { count } from "../number-format.js";

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

/** The controls a data format does not use itself: CONTROL without tab, newline and the CR of a CRLF (TSV's and CSV's separators, JSON's lines). */
const CONTROL_IN_DATA = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

/**
 * CSV, TSV or JSON bound for a terminal (stdout a TTY): every control
 * character but tab, newline and CRLF escaped, so a value cannot clear the screen or
 * set the clipboard (OSC 52). In CSV and TSV as escapeControls writes it
 * (`\x1b`); in JSON (`json`) as a JSON escape (`\u001b`), which parses to the
 * same value. To a file or a pipe the bytes stay exact; this is for the eyes.
 */
export function terminalData(text: string, json: boolean): string {
  CONTROL_IN_DATA.lastIndex = 0;
  if (!CONTROL_IN_DATA.test(text)) return text;
  return text.replace(CONTROL_IN_DATA, json ? (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : escapeOne);
}

/** `text` with every control character written as an escape: ESC -> `\x1b`, newline -> `\n`, U+202E -> `\u202e`. */
export function escapeControls(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, escapeOne) : text;
}

/**
 * A message for stderr: as escapeControls, but newlines stay (the message's own
 * line breaks); and bounded as a rendering is (boundLine): a warning or a
 * rejected line quoting a 100,000-character task id prints 500 of them.
 */
export function escapeMessage(text: string): string {
  CONTROL_BUT_NEWLINE.lastIndex = 0;
  const escaped = CONTROL_BUT_NEWLINE.test(text) ? text.replace(CONTROL_BUT_NEWLINE, escapeOne) : text;
  return escaped.length <= SHOWN_MAX ? escaped : escaped.split("\n").map(boundLine).join("\n");
}

/**
 * The most characters of one string a text, markdown or HTML rendering shows.
 * Above denom's own longest sentence (a format's note, about 300 characters),
 * so only what came from an input is ever cut.
 */
export const SHOWN_MAX = 500;

/** `text` cut to SHOWN_MAX characters, with `…(+99,500 chars)` saying how many were left out. */
export function shorten(text: string): string {
  if (text.length <= SHOWN_MAX) return text;
  // never half a surrogate pair
  const keep = SHOWN_MAX - (isHighSurrogate(text.charCodeAt(SHOWN_MAX - 1)) ? 1 : 0);
  return `${text.slice(0, keep)}…(+${count(text.length - keep)} chars)`;
}

/** The longest line of a message on stderr once its long words are shortened: denom's own sentence and a few shortened strings. */
export const MESSAGE_LINE_MAX = 4 * SHOWN_MAX;

/** A run of more than SHOWN_MAX characters without a space: a string from an input (an id, a name, an excerpt). */
const LONG_WORD = new RegExp(`\\S{${SHOWN_MAX + 1},}`, "g");

/**
 * One line of a stderr message bounded: each run of more than SHOWN_MAX
 * characters without a space shortened (shorten: the same marker as the text
 * outputs, `…(+99,500 chars)`); a line still longer than MESSAGE_LINE_MAX (an
 * input string with spaces) keeps its first 1,500 and last 500 characters, the
 * middle replaced by the same marker, so the end of denom's sentence (what to do) stays.
 */
function boundLine(line: string): string {
  if (line.length <= SHOWN_MAX) return line;
  const words = line.replace(LONG_WORD, shorten);
  if (words.length <= MESSAGE_LINE_MAX) return words;
  const head = MESSAGE_LINE_MAX - SHOWN_MAX - (isHighSurrogate(words.charCodeAt(MESSAGE_LINE_MAX - SHOWN_MAX - 1)) ? 1 : 0);
  const tail = words.length - SHOWN_MAX + (isHighSurrogate(words.charCodeAt(words.length - SHOWN_MAX - 1)) ? 1 : 0);
  return `${words.slice(0, head)}…(+${count(tail - head)} chars)${words.slice(tail)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A copy of `value` with `f` applied to every string in it, keys too; numbers, booleans and null as they are. */
function mapStrings<T>(value: T, f: (s: string) => string): T {
  if (typeof value === "string") return f(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[f(k)] = mapStrings(v, f);
    return out as T;
  }
  return value;
}

/**
 * A copy of `value` (the data a command returned) with every string in it,
 * keys too, shortened (shorten) and passed through escapeControls. For the
 * text and markdown renderers, which then add their own colour.
 */
export function terminalSafe<T>(value: T): T {
  return mapStrings(value, (s) => escapeControls(shorten(s)));
}

/** A copy of `value` with every string in it, keys too, shortened (shorten): for the HTML renderers, which escape for themselves. */
export function shortened<T>(value: T): T {
  return mapStrings(value, shorten);
}
