/** The JSON renderer: one object (or array) on stdout, numbers as JSON numbers. */
export function renderJson(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}
