/** `denom report --json`: the report's data as JSON (docs/commands.md). */
import type { ReportData } from "../commands/report.js";
import { renderJson } from "../json.js";

/**
 * The report as one JSON object: each harness's own verdict under the key its
 * format declares (VerdictHook.key: its rows, [] when no run is that
 * harness's), in the place of `verdicts`; every other key as it is.
 */
export function renderReportJson(data: ReportData): string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === "verdicts") for (const v of data.verdicts) out[v.key] = v.rows;
    else out[key] = value;
  }
  return renderJson(out);
}
