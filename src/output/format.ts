export const OUTPUT_FORMATS = ["table", "json", "ndjson", "csv"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Whether `value` names an output format. */
export function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}
