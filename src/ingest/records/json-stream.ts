/**
 * stream-json, the tokenizer and assembler of JSON documents (reader.ts) and of
 * the JSON members of a zip log (the archive reader an adapter declares). Loaded with the first JSON
 * document through `loadJsonStream` (reader.ts), never by a plain import: a report of
 * JSONL inputs does not need it (its modules are about 30 ms of CPU of a
 * report's start; docs/benchmarks.md).
 */
import Assembler from "stream-json/assembler.js";
import { ID_KEYS } from "../../formats/canonical-record.js";
import { BigLiteral } from "../../json-text.js";

export { jsonParser } from "stream-json/parser.js";
export { getManyValues, isMany, none } from "stream-chain/defs.js";
export { Assembler };

/**
 * stream-json's Assembler, keeping what JSON.parse would lose (src/json-text.ts): an
 * integer beyond 2^53 (and an id under a key of ID_KEYS written as `1.0` or `-0`) becomes a BigLiteral holding its text, and a key written
 * twice in one object is listed in `duplicates` (the last value wins, as before).
 */
export class LiteralAssembler extends Assembler {
  duplicates: string[] = [];

  override keyValue(value: string): void {
    const current = this.current as Record<string, unknown> | null;
    if (current !== null && !Array.isArray(current) && Object.prototype.hasOwnProperty.call(current, value)) {
      let where = "";
      for (const part of this.path) where += typeof part === "number" ? `[${part}]` : where === "" ? part : `.${part}`;
      this.duplicates.push(where === "" ? value : `${where}.${value}`);
    }
    super.keyValue(value);
  }

  override numberValue(value: string): void {
    // an id (ID_KEYS) not written as its number's shortest form (`1.0`, `-0`) keeps its text too
    const key = (this as unknown as { key: string | null }).key;
    if (
      (value.length >= 16 && /^-?\d+$/.test(value) && !Number.isSafeInteger(Number(value))) ||
      (key !== null && ID_KEYS.has(key) && String(Number(value)) !== value)
    )
      this.stringValue(new BigLiteral(value) as never);
    else super.numberValue(value);
  }
}
