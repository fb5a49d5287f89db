import type { Envelope } from "../contract/index.js";
import type { OutputFormat } from "../cli/settings.js";
import { createHoldCounter, DEFAULT_HOLD_LIMIT, type HoldLimit } from "./hold-limit.js";
import { formatJson, writeText, type Io } from "./terminal.js";

export interface ListOutput<T> {
  format: OutputFormat;
  io: Io;
  all: boolean;
  /** Table view of every item received (tables need all rows to size their columns). */
  renderTable: (items: T[]) => string | Promise<string>;
  /** Notices on stderr: only on a TTY and never with --quiet (the run's `notice`). */
  notice: (message: string) => void;
  /** A notice when the last page says there is more. */
  moreHint?: (nextOffset: number) => string;
  /** A notice when a table would be empty. */
  emptyMessage?: string;
  /** CSV header when no item arrives (otherwise the first item's keys). */
  csvColumns?: string[];
  /** What json and table may hold with `--all` (default DEFAULT_HOLD_LIMIT). */
  holdLimit?: HoldLimit | undefined;
}

/**
 * The CSV header: the documented columns first (so an optional field such as a LOB's `state`
 * has its column even when the first item lacks it), then any extra field the server added.
 */
export function pickCsvColumns(
  rows: ReadonlyArray<Record<string, unknown>>,
  documented: readonly string[] | undefined,
): string[] | undefined {
  if (!documented) return undefined;
  const extra = new Set<string>();
  for (const row of rows)
    for (const key of Object.keys(row)) if (!documented.includes(key)) extra.add(key);
  return [...documented, ...extra];
}

/**
 * Writes pages of a list in the chosen format: json (the envelope, one for `--all`),
 * ndjson and csv streamed per page, table once all pages are in.
 */
export async function writeList<T>(
  pages: AsyncIterable<Envelope<T>>,
  out: ListOutput<T>,
): Promise<void> {
  const { io, format } = out;
  const kept: T[] = [];
  const hold = createHoldCounter(out.holdLimit ?? DEFAULT_HOLD_LIMIT, format);
  let first: Envelope<T> | undefined;
  let last: Envelope<T> | undefined;
  let csvHeader: string[] | undefined;
  let csvStarted = false;
  for await (const page of pages) {
    first ??= page;
    last = page;
    if (format === "ndjson") {
      if (page.data.length)
        await writeText(io.stdout, page.data.map((d) => formatJson(io, d)).join("\n") + "\n");
    } else if (format === "csv") {
      const rows = page.data as Array<Record<string, unknown>>;
      if (!rows.length) continue;
      const first = !csvStarted;
      const { toCsv } = await import("./csv.js");
      const { text, header } = toCsv(
        rows,
        csvHeader ?? pickCsvColumns(rows, out.csvColumns),
        io.stdoutIsTTY,
        first,
      );
      csvHeader = header;
      csvStarted = true;
      await writeText(io.stdout, text);
    } else if (format === "json" && !out.all) {
      await writeText(io.stdout, formatJson(io, page, 2) + "\n");
    } else {
      // A server that never stops saying has_more would otherwise grow this until V8 aborts.
      hold(page.data);
      kept.push(...page.data);
    }
  }
  if (format === "csv" && !csvStarted && out.csvColumns) {
    const { toCsv } = await import("./csv.js");
    await writeText(io.stdout, toCsv([], out.csvColumns, io.stdoutIsTTY, true).text);
  }
  if (format === "json" && out.all) {
    const envelope = { data: kept, limit: first?.limit ?? kept.length, offset: 0, has_more: false };
    await writeText(io.stdout, formatJson(io, envelope, 2) + "\n");
  }
  if (format === "table") {
    if (kept.length === 0 && out.emptyMessage) out.notice(out.emptyMessage);
    else await writeText(io.stdout, (await out.renderTable(kept)) + "\n");
  }
  if (last?.has_more && !out.all && out.moreHint)
    out.notice(out.moreHint(last.offset + last.data.length));
}
