import type { Envelope } from "../contract/index.js";
import type { OutputFormat } from "./format.js";
import { createHoldCounter, DEFAULT_HOLD_LIMIT, type HoldLimit } from "./hold-limit.js";
import { formatJson, writeText, type Io } from "./terminal.js";

export interface ListOutput<T> {
  format: OutputFormat;
  io: Io;
  all: boolean;
  /** Table view of every item received (tables need all rows to size their columns). */
  renderTable: (items: T[]) => string | Promise<string>;
  /** Lines on stderr for people, terminal or not, never with --quiet (the run's `inform`). */
  notice: (message: string) => void;
  /** A notice when the last page says there is more. */
  moreHint?: (nextOffset: number) => string;
  /**
   * What an empty answer says: on stdout for a table on a terminal, else on stderr (in every
   * format, even with --quiet: an empty answer never passes in silence).
   */
  emptyMessage?: string;
  /** CSV header when no item arrives (otherwise the first item's keys). */
  csvColumns?: string[];
  /** A CSV row of an item when it is not the item itself (flat columns for nested fields). */
  csvRow?: (item: T) => Record<string, unknown>;
  /** `--fields`: the keys kept in each json/ndjson item, the CSV header (exactly these). */
  fields?: string[];
  /** What json and table may hold with `--all` (default DEFAULT_HOLD_LIMIT). */
  holdLimit?: HoldLimit | undefined;
}

/** An item with only the named keys, in the order named (a key the item lacks stays absent). */
export function pickKeys(item: unknown, names: readonly string[]): Record<string, unknown> {
  const source = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of names) if (name in source) out[name] = source[name];
  return out;
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
  const { io, format, fields } = out;
  const pick = (items: T[]): unknown[] => (fields ? items.map((d) => pickKeys(d, fields)) : items);
  const kept: T[] = [];
  const hold = createHoldCounter(out.holdLimit ?? DEFAULT_HOLD_LIMIT, format);
  let first: Envelope<T> | undefined;
  let last: Envelope<T> | undefined;
  let csvHeader: string[] | undefined;
  let csvStarted = false;
  let received = 0;
  for await (const page of pages) {
    first ??= page;
    last = page;
    received += page.data.length;
    if (format === "ndjson") {
      if (page.data.length)
        await writeText(
          io.stdout,
          pick(page.data)
            .map((d) => formatJson(io, d))
            .join("\n") + "\n",
        );
    } else if (format === "csv") {
      if (!page.data.length) continue;
      const rows = out.csvRow
        ? page.data.map(out.csvRow)
        : (page.data as Array<Record<string, unknown>>);
      const first = !csvStarted;
      const { toCsv } = await import("./csv.js");
      const { text, header } = toCsv(
        rows,
        csvHeader ?? fields ?? pickCsvColumns(rows, out.csvColumns),
        io.bom === true,
        first,
      );
      csvHeader = header;
      csvStarted = true;
      await writeText(io.stdout, text);
    } else if (format === "json" && !out.all) {
      const body = fields ? { ...page, data: pick(page.data) } : page;
      await writeText(io.stdout, formatJson(io, body, 2) + "\n");
    } else {
      // A server that never stops saying has_more would otherwise grow this until V8 aborts
      // (one page is one response, bounded as the client reads it: not measured again).
      if (out.all) hold(page.data);
      kept.push(...page.data);
    }
  }
  const emptyHeader = fields ?? out.csvColumns;
  if (format === "csv" && !csvStarted && emptyHeader) {
    const { toCsv } = await import("./csv.js");
    await writeText(io.stdout, toCsv([], emptyHeader, io.bom === true, true).text);
  }
  if (format === "json" && out.all) {
    const envelope = {
      data: pick(kept),
      limit: first?.limit ?? kept.length,
      // `--all --offset N` is every item from N on: the envelope says where it starts.
      offset: first?.offset ?? 0,
      has_more: false,
    };
    await writeText(io.stdout, formatJson(io, envelope, 2) + "\n");
  }
  if (received === 0 && out.emptyMessage) {
    if (format === "table" && io.stdoutIsTTY) await writeText(io.stdout, out.emptyMessage + "\n");
    else io.stderr.write(out.emptyMessage + "\n");
  } else if (format === "table") await writeText(io.stdout, (await out.renderTable(kept)) + "\n");
  if (last?.has_more && !out.all && out.moreHint)
    out.notice(out.moreHint(last.offset + last.data.length));
}
