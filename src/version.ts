import { readFileSync } from "node:fs";

/** denom's version, from the package.json shipped beside dist/. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
