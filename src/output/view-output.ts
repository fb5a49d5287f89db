import type { OutputFormat } from "./format.js";
import { UsageError } from "../errors.js";
import { formatJson, writeText, type Io } from "./terminal.js";

export interface ViewOutput {
  format: OutputFormat;
  io: Io;
  /** The readable view (table format). */
  renderTable: () => string | Promise<string>;
  /** One row per item for ndjson and csv; absent when the view is not a list. */
  rows?: Array<Record<string, unknown>>;
  /** CSV header (kept when there are no rows). */
  csvColumns?: string[];
  /** The command, to name in the error of a format the view has no rows for. */
  command: string;
  /**
   * What an answer without rows says: on stderr, unless the table goes to a terminal (the
   * table says it there).
   */
  emptyMessage?: string;
}

/**
 * Writes an analyst view: `json` the whole structured value, `ndjson`/`csv` one line per row
 * (list views only), `table` the readable view.
 */
export async function writeView(value: unknown, out: ViewOutput): Promise<void> {
  await writeViewOnly(value, out);
  const { io, format } = out;
  if (out.rows?.length === 0 && out.emptyMessage && !(format === "table" && io.stdoutIsTTY))
    io.stderr.write(out.emptyMessage + "\n");
}

async function writeViewOnly(value: unknown, out: ViewOutput): Promise<void> {
  const { io, format } = out;
  if (format === "json") return writeText(io.stdout, formatJson(io, value, 2) + "\n");
  if (format === "table") return writeText(io.stdout, (await out.renderTable()) + "\n");
  if (!out.rows)
    throw new UsageError(
      `${out.command} is not a list: --format ${format} does not apply`,
      "Use --json for the structured answer, or the default table.",
    );
  if (format === "ndjson") {
    if (out.rows.length)
      await writeText(io.stdout, out.rows.map((r) => formatJson(io, r)).join("\n") + "\n");
    return;
  }
  const { toCsv } = await import("./csv.js");
  await writeText(io.stdout, toCsv(out.rows, out.csvColumns, io.bom === true, true).text);
}
