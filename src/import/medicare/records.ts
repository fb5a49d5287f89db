import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { parse } from "csv-parse";
import { parse as parseSync } from "csv-parse/sync";

/** How a file's records are split: CMS's PTP text files by tabs, every other file as CSV. */
export type RecordFormat = "tab" | "csv";

// CMS publishes these files in Latin-1 / Windows-1252; the codes and numbers are ASCII either
// way, and nothing else read from them (rationales) goes beyond Latin-1.
const ENCODING = "latin1";

/** The head of a file (its first bytes), decoded, for telling its layout. */
export async function readHead(stream: Readable, bytes = 256 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= bytes) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, bytes).toString(ENCODING);
}

/** The format of a file from its head: tab-separated when its first lines hold tabs. */
export function formatOf(head: string): RecordFormat {
  const firstLines = head.split(/\r?\n/, 8).join("\n");
  return firstLines.includes("\t") ? "tab" : "csv";
}

/** The complete records of a head (the last, possibly cut one left out). */
export function headRecords(head: string, format: RecordFormat, max = 40): string[][] {
  const cut = head.lastIndexOf("\n");
  const whole = cut >= 0 ? head.slice(0, cut + 1) : head;
  if (format === "tab")
    return whole
      .split(/\r?\n/)
      .slice(0, max)
      .map((line) => line.split("\t"));
  try {
    return (
      parseSync(whole, {
        relax_column_count: true,
        relax_quotes: true,
        bom: true,
        to: max,
      }) as string[][]
    ).slice(0, max);
  } catch {
    return whole
      .split(/\r?\n/)
      .slice(0, max)
      .map((line) => line.split(","));
  }
}

/**
 * The longest record a rule file may hold, in characters. CMS's rows are under 1 KB (a PTP
 * rationale, a PA list's category); without a limit one endless field is held whole (a 50 MB
 * field peaked at 327 MB), so a record past 1 MiB is refused, naming its line.
 */
export const MAX_RECORD_CHARS = 1 << 20;

/** A record past MAX_RECORD_CHARS: the importer names the file and line and imports nothing. */
export class RecordTooLongError extends Error {}

/** Every record of a file, streamed (memory does not grow with the file). */
export async function* readRecords(
  stream: Readable,
  format: RecordFormat,
): AsyncGenerator<string[]> {
  stream.setEncoding(ENCODING);
  if (format === "tab") {
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.length > MAX_RECORD_CHARS) throw new RecordTooLongError();
      yield line.split("\t");
    }
    return;
  }
  const parser = stream.pipe(
    parse({
      relax_column_count: true,
      relax_quotes: true,
      bom: true,
      skip_empty_lines: false,
      max_record_size: MAX_RECORD_CHARS,
    }),
  );
  try {
    for await (const record of parser) yield record as string[];
  } catch (err) {
    if ((err as { code?: string }).code === "CSV_MAX_RECORD_SIZE") throw new RecordTooLongError();
    throw err;
  }
}
