/**
 * A worker thread of the JSONL line path: takes blocks of whole
 * physical lines cut by the main thread's LineSplitter (parallel.ts), and gives
 * back what each line becomes (records/parse-line.ts lineOutcome, prepare.ts prepareUnit:
 * the same functions the main thread runs on a small source), in plain data.
 */
import { isMainThread, parentPort } from "node:worker_threads";
import { formatNamed } from "../../formats/index.js";
import { decodeLine } from "../bytes/lines.js";
import { lineOutcome } from "../records/parse-line.js";
import { PackWriter } from "./packed.js";
import { LineKind, type Block, type BlockResult } from "./parallel.js";
import { prepareUnit, type PrepareContext, type PreparedUnit } from "./prepare.js";

/** What one block's lines become, in order (parallel.ts BlockResult); an adapter's throw ends the block with `thrown`. */
export function processBlock(block: Block): { result: BlockResult; transfer: ArrayBuffer[] } {
  const bytes = Buffer.from(block.bytes); // `ends` says where its lines end (the buffer may be longer)
  const ends = new Uint32Array(block.ends);
  const forced = block.context.forced === null ? null : (formatNamed(block.context.forced) ?? null);
  const context: PrepareContext = { source: block.context.source, scoreKey: block.context.scoreKey, forced };
  const kinds = new Uint8Array(ends.length);
  const objects: (readonly [string, string] | PreparedUnit)[] = [];
  const packer = new PackWriter({ source: block.context.source, runPerFile: block.context.runPerFile }, ends.length);
  const skip = new Set(block.overlong);
  let thrown: BlockResult["thrown"] = null;
  let lines = ends.length;
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i];
    if (skip.has(i)) {
      kinds[i] = LineKind.Overlong; // the main thread holds its reject
      start = end;
      continue;
    }
    const body = bytes.subarray(start, end);
    const r = lineOutcome({ no: block.firstLine + i, text: decodeLine(body), bytes: end - start });
    start = end;
    if (r.kind === "blank") kinds[i] = LineKind.Blank;
    else if (r.kind === "reject") {
      kinds[i] = LineKind.Reject;
      objects.push([r.reason, r.text]);
    } else {
      let p: PreparedUnit;
      try {
        p = prepareUnit(r.unit, context, body);
      } catch (e) {
        thrown = { name: (e as Error)?.name ?? "Error", message: String((e as Error)?.message ?? e) };
        lines = i;
        break;
      }
      if (packer.unit(p)) kinds[i] = LineKind.Packed;
      else {
        kinds[i] = LineKind.Unit;
        objects.push(p);
      }
    }
  }
  const { packed, transfer } = packer.finish();
  return { result: { id: block.id, kinds: kinds.subarray(0, lines), objects, packed, thrown }, transfer: [kinds.buffer, ...transfer] };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on("message", (block: Block) => {
    const { result, transfer } = processBlock(block);
    port.postMessage(result, transfer);
  });
}
