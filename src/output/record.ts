import type { OutputFormat } from "./format.js";
import { formatJson, writeText, type Io } from "./terminal.js";

export interface RecordOutput {
  format: OutputFormat;
  io: Io;
  /** The readable view (table format). */
  renderTable: () => string | Promise<string>;
  /** Rows for ndjson and csv when they differ from the JSON value (default: the value itself). */
  rows?: Array<Record<string, unknown>>;
}

/** Writes one object (a policy, a health report) in the chosen format. */
export async function writeRecord(value: unknown, out: RecordOutput): Promise<void> {
  const { io, format } = out;
  const rows = out.rows ?? [value as Record<string, unknown>];
  if (format === "json") return writeText(io.stdout, formatJson(io, value, 2) + "\n");
  if (format === "ndjson")
    return writeText(io.stdout, rows.map((r) => formatJson(io, r)).join("\n") + "\n");
  if (format === "csv") {
    const { toCsv } = await import("./csv.js");
    return writeText(io.stdout, toCsv(rows, undefined, io.bom === true).text);
  }
  return writeText(io.stdout, (await out.renderTable()) + "\n");
}
