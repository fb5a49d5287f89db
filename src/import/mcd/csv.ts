import { finished, pipeline } from "node:stream/promises";
import { parse } from "csv-parse";
import { UsageError } from "../../errors.js";
import type { TableSource } from "./sources.js";
import { CsvGuard, FIELD_TOO_LARGE, MAX_FIELD_CHARS } from "./csv-guard.js";
import { exportTextDecoder } from "./text-decoding.js";

/** One data row: its values by lower-case column name (`""` for a column it lacks). */
export interface Row {
  get(column: string): string;
  /** The line of the file where the row starts (1-based, the header being line 1). */
  line: number;
}

/** A row that cannot be read: what the importer reports (and `--strict` fails on). */
export interface BadRow {
  file: string;
  line: number;
  reason: string;
}

/**
 * Streams a CSV table of the export: Windows-1252 or UTF-8 bytes decoded, header matched by
 * name in any case (CMS adds columns, so never by position), quoted fields of any size and with
 * newlines. A missing required column is a usage error naming the file and column; a row with
 * the wrong number of fields or broken quoting goes to `onBad` and is skipped.
 */
export async function readTable(
  source: TableSource,
  required: readonly string[],
  onRow: (row: Row) => void | Promise<void>,
  onBad: (bad: BadRow) => void,
  /** The largest field (characters; tests make it small). */
  maxField = MAX_FIELD_CHARS,
): Promise<void> {
  // Neither `info` nor async iteration: each cost more than the parse itself on 431k rows.
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_records_with_error: true,
  });
  parser.on("skip", (err: Error & { lines?: number }) =>
    onBad({ file: source.label, line: err.lines ?? 0, reason: err.message }),
  );
  let index: Map<string, number> | undefined;
  let names: string[] = [];
  let width = 0;
  // Lines counted as the file shows them: one per record, plus the newlines inside its fields.
  let line = 1;
  const handle = (record: string[]): void | Promise<void> => {
    const start = line;
    line += 1 + countNewlines(record);
    if (!index) {
      // A UTF-8 byte-order mark read as Windows-1252 is "ï»¿": not part of the first name.
      names = record.map((name) =>
        name
          .replace(/^(\ufeff|\u00ef\u00bb\u00bf)/, "")
          .trim()
          .toLowerCase(),
      );
      index = new Map(names.map((name, i) => [name, i]));
      width = record.length;
      const missing = required.find((c) => !index!.has(c));
      if (missing)
        throw new UsageError(
          `${source.label}: no column '${missing}'`,
          "The file is not the MCD export's table of that name (or CMS renamed the column); download the export again.",
        );
      return;
    }
    if (record.length === 1 && record[0] === "") return; // an empty line
    const cut = record.findIndex((field) => field.endsWith(FIELD_TOO_LARGE));
    if (cut !== -1) {
      const column = names[cut];
      onBad({
        file: source.label,
        line: start,
        reason: `${column ? `the field '${column}' is` : "a field"} longer than ${describeSize(maxField)}, the largest a field may be`,
      });
      return;
    }
    if (record.length !== width) {
      onBad({
        file: source.label,
        line: start,
        reason: `${record.length} fields where the header has ${width}`,
      });
      return;
    }
    const columns = index;
    return onRow({ get: (c) => record[columns.get(c) ?? -1] ?? "", line: start });
  };
  parser.on("data", (record: string[]) => {
    try {
      const done = handle(record);
      if (done instanceof Promise) {
        // A document row writes its text file: no more rows until it is done.
        parser.pause();
        done.then(
          () => parser.resume(),
          (err: Error) => parser.destroy(err),
        );
      }
    } catch (err) {
      parser.destroy(err as Error);
    }
  });
  // pipeline() settles when the parser has taken every byte; `finished` waits until every
  // record has been handled too (handlers pause the parser while a document is written).
  await Promise.all([
    pipeline(
      await source.open(),
      exportTextDecoder(source.label),
      new CsvGuard(source.label, maxField),
      parser,
    ),
    finished(parser),
  ]);
  if (!index)
    throw new UsageError(
      `${source.label}: empty file (no header row)`,
      "Download the export again: every table has a header row.",
    );
}

function countNewlines(record: string[]): number {
  let count = 0;
  for (const field of record)
    for (let i = field.indexOf("\n"); i !== -1; i = field.indexOf("\n", i + 1)) count++;
  return count;
}

function describeSize(chars: number): string {
  return chars >= 1 << 20 ? `${chars / (1 << 20)} MB` : `${chars} characters`;
}
