import { readFileSync } from "node:fs";
import { PACKAGE_JSON } from "./paths.js";

/** denom's version, from the package.json shipped beside dist/. */
export const VERSION: string = (JSON.parse(readFileSync(PACKAGE_JSON, "utf8")) as { version: string }).version;
