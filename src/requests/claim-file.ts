// Reading `coverage check --input`: CSV with a header or NDJSON, told apart by the first
// character, streamed line by line with a bounded line length, so that neither a huge file nor
// a huge line is ever held whole.
import { parse as parseCsv } from "csv-parse/sync";
import { StringDecoder } from "node:string_decoder";
import { UsageError } from "../errors.js";
import { CLAIM_COLUMNS, LineProblem, type ClaimColumn, type RawClaimLine } from "./claim-line.js";

/** The longest line read (characters); a longer one is a bad line, never held whole. */
export const MAX_LINE_CHARS = 64 * 1024;

/** Lines that are no claim, counted as read so that the summary adds up to the file's lines. */
export interface ReadTally {
  /** Blank lines (after the header). */
  blank: number;
  /** Lines inside a quoted value that began on an earlier line. */
  continued: number;
}

/** One line of the input: its values, or what is wrong with it. */
export type ClaimRecord =
  { line: number; raw: RawClaimLine } | { line: number; problem: LineProblem };

const COLUMN_ALIASES: Record<string, ClaimColumn> = {
  ...Object.fromEntries(CLAIM_COLUMNS.map((c) => [c, c])),
  diagnoses: "diagnosis",
  payer_id: "payer",
  date_of_service: "date",
};
const HEADER_FIX = `The first line names the columns, e.g. ${CLAIM_COLUMNS.join(",")} (procedure and diagnosis required; NDJSON: one object a line with these keys).`;

type Line = { line: number; text: string } | { line: number; tooLong: true };

/**
 * Physical lines of a byte stream (`\n` or `\r\n`), a line past MAX_LINE_CHARS dropped as it
 * comes and reported as soon as it is past (a stream with no line end, `/dev/zero`, is never
 * read to its end to say so).
 */
async function* splitLines(
  source: AsyncIterable<Buffer | string>,
  max: number,
): AsyncGenerator<Line> {
  const decoder = new StringDecoder("utf8");
  let partial = "";
  // The current line is past `max`: reported once, its text dropped up to its end.
  let tooLong = false;
  let line = 1;
  const strip = (text: string) => (text.endsWith("\r") ? text.slice(0, -1) : text);
  for await (const chunk of source) {
    const str = typeof chunk === "string" ? chunk : decoder.write(chunk);
    let from = 0;
    for (let nl = str.indexOf("\n"); nl >= 0; nl = str.indexOf("\n", from)) {
      if (!tooLong) {
        const text = partial + str.slice(from, nl);
        yield text.length > max + 1 ? { line, tooLong: true } : { line, text: strip(text) };
      }
      line++;
      partial = "";
      tooLong = false;
      from = nl + 1;
    }
    if (!tooLong) {
      partial += str.slice(from);
      if (partial.length > max + 1) {
        tooLong = true;
        partial = "";
        yield { line, tooLong: true };
      }
    }
  }
  const rest = tooLong ? "" : partial + decoder.end();
  if (rest !== "")
    yield rest.length > max + 1 ? { line, tooLong: true } : { line, text: strip(rest) };
}

function tooLongProblem(): LineProblem {
  return new LineProblem(
    undefined,
    `longer than ${MAX_LINE_CHARS.toLocaleString("en-US")} characters`,
    "A claim line is a few codes; check that the file is a claims CSV or NDJSON with one line a claim.",
  );
}

/** The header's columns as claim columns (false: a column not read), or a usage error. */
function readHeader(
  names: string[],
  source: string,
  warn: (m: string) => void,
): Array<ClaimColumn | false> {
  const seen = new Set<ClaimColumn>();
  const unknown: string[] = [];
  const columns = names.map((name) => {
    const column = COLUMN_ALIASES[name.trim().toLowerCase()];
    if (!column) {
      if (name.trim()) unknown.push(name.trim());
      return false as const;
    }
    if (seen.has(column))
      throw new UsageError(
        `${source}, line 1 (header): the column '${column}' is named twice`,
        HEADER_FIX,
      );
    seen.add(column);
    return column;
  });
  const missing = (["procedure", "diagnosis"] as const).filter((c) => !seen.has(c));
  if (missing.length)
    throw new UsageError(
      `${source}, line 1 (header): no ${missing.map((m) => `'${m}'`).join(" or ")} column (the header reads: ${names
        .map((n) => n.trim())
        .join(",")
        .slice(0, 200)})`,
      HEADER_FIX,
    );
  if (unknown.length)
    warn(
      `${source}, line 1 (header): column${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `'${u.slice(0, 40)}'`).join(", ")} not read; the columns read are ${CLAIM_COLUMNS.join(", ")}.`,
    );
  return columns;
}

/** Lines of an NDJSON input: each a JSON object with the claim keys. */
async function* readNdjson(
  lines: AsyncGenerator<Line>,
  source: string,
  warn: (m: string) => void,
  tally: ReadTally,
): AsyncGenerator<ClaimRecord> {
  const warned = new Set<string>();
  for await (const l of lines) {
    if ("tooLong" in l) {
      yield { line: l.line, problem: tooLongProblem() };
      continue;
    }
    const text = l.line === 1 ? l.text.replace(/^\uFEFF/, "") : l.text;
    if (text.trim() === "") {
      tally.blank++;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield {
        line: l.line,
        problem: new LineProblem(
          undefined,
          "not valid JSON",
          'Write one JSON object a line, e.g. {"procedure":"CPT:97110","diagnosis":"M54.50"}.',
        ),
      };
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      yield {
        line: l.line,
        problem: new LineProblem(
          undefined,
          "not a JSON object",
          'Write one JSON object a line, e.g. {"procedure":"CPT:97110","diagnosis":"M54.50"}.',
        ),
      };
      continue;
    }
    const raw: RawClaimLine = {};
    for (const [key, v] of Object.entries(value)) {
      const column = COLUMN_ALIASES[key.toLowerCase()];
      if (column) raw[column] = v;
      else if (!warned.has(key) && warned.size < 20) {
        warned.add(key);
        warn(
          `${source}, line ${l.line}: the key '${key.slice(0, 40)}' is not read; the keys read are ${CLAIM_COLUMNS.join(", ")}.`,
        );
      }
    }
    yield { line: l.line, raw };
  }
}

/** A quoted value may run over line ends, up to this many characters in all (a claim line is a few codes). */
export const MAX_RECORD_CHARS = 4 * MAX_LINE_CHARS;

const QUOTE_FIX = 'Close the quote ("), or write a quote inside a value as two ("").';

/** The refusal of a quote left open: the rest of the file would be one value, every claim in it lost. */
function unclosedQuote(source: string, line: number, how: string): UsageError {
  return new UsageError(
    `${source}, line ${line}: the quote that opens a value on this line ${how}, so the lines after it cannot be read; nothing after it was checked`,
    QUOTE_FIX,
  );
}

/**
 * Follows a line's quotes as a CSV reader does (a quote opens a value only where a value starts;
 * inside one, two quotes are one): whether the line ends inside a quoted value, and whether a
 * value opened on an earlier line closes with text after its quote (the quotes paired wrongly).
 */
function followQuotes(text: string, inQuote: boolean): { open: boolean; badClose: boolean } {
  let fromEarlierLine = inQuote;
  for (let i = 0; ;) {
    const q = text.indexOf('"', i);
    if (q < 0) return { open: inQuote, badClose: false };
    if (inQuote) {
      if (text[q + 1] === '"') {
        i = q + 2;
        continue;
      }
      const next = text[q + 1];
      if (fromEarlierLine && next !== undefined && next !== ",")
        return { open: false, badClose: true };
      inQuote = fromEarlierLine = false;
    } else if (q === 0 || text[q - 1] === ",") inQuote = true;
    i = q + 1;
  }
}

type CsvRecord = { line: number; text: string } | { line: number; tooLong: true };

/**
 * Physical lines joined into CSV records, in order, each numbered by its first line: a quoted
 * value may hold line ends, up to MAX_RECORD_CHARS; a quote still open past that or at the end
 * of the input is a usage error naming the line where it opened. Nothing but the open record is
 * held, so a stray quote costs at most that many characters, whatever follows it.
 */
async function* joinRecords(
  lines: AsyncIterable<Line>,
  source: string,
  tally: ReadTally,
): AsyncGenerator<CsvRecord> {
  let open: { line: number; parts: string[]; size: number } | undefined;
  for await (const l of lines) {
    if ("tooLong" in l) {
      if (open)
        throw unclosedQuote(
          source,
          open.line,
          `is still open ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters later`,
        );
      yield l;
      continue;
    }
    const text = l.line === 1 ? l.text.replace(/^\uFEFF/, "") : l.text;
    const { open: stillOpen, badClose } = followQuotes(text, open !== undefined);
    if (badClose)
      throw unclosedQuote(
        source,
        open!.line,
        `is closed on line ${l.line} with text after it (the quotes pair wrongly from there on)`,
      );
    if (open) {
      open.parts.push(text);
      open.size += text.length + 1;
      if (open.size > MAX_RECORD_CHARS)
        throw unclosedQuote(
          source,
          open.line,
          `is still open ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters later`,
        );
      if (stillOpen) continue;
      tally.continued += open.parts.length - 1;
      yield { line: open.line, text: open.parts.join("\n") };
      open = undefined;
    } else if (stillOpen) open = { line: l.line, parts: [text], size: text.length };
    else yield { line: l.line, text };
  }
  if (open) throw unclosedQuote(source, open.line, "is never closed");
}

/** A record's values: split at commas when it holds no quote, else read by csv-parse. */
function splitRecord(text: string): string[] {
  if (!text.includes('"')) return text.split(",");
  let rows: string[][];
  try {
    rows = parseCsv(text, { record_delimiter: "\n", relax_column_count: true }) as string[][];
  } catch (err) {
    const e = err as Error & { code?: string };
    throw new LineProblem(
      undefined,
      e.code === "INVALID_OPENING_QUOTE"
        ? "a quote inside a value that does not start with one"
        : e.code === "CSV_INVALID_CLOSING_QUOTE"
          ? "a quoted value is followed by text before the next comma"
          : e.message.replace(/ (?:on|at) line \d+/, ""),
      'Quote the whole value ("..."), and write a quote inside it as two ("").',
    );
  }
  if (rows.length === 1) return rows[0]!;
  throw new LineProblem(undefined, "not one CSV line", QUOTE_FIX);
}

/** Lines of a CSV input: the header, then each record's values or its problem, in line order, as they come. */
async function* readCsv(
  lines: AsyncIterable<Line>,
  source: string,
  warn: (m: string) => void,
  tally: ReadTally,
): AsyncGenerator<ClaimRecord> {
  let header: Array<ClaimColumn | false> | undefined;
  for await (const r of joinRecords(lines, source, tally)) {
    if ("tooLong" in r) {
      yield { line: r.line, problem: tooLongProblem() };
      continue;
    }
    if (r.text === "") {
      if (header) tally.blank++;
      continue;
    }
    let values: string[];
    try {
      values = splitRecord(r.text);
    } catch (err) {
      if (!(err instanceof LineProblem) || !header) throw headerError(err, source);
      yield { line: r.line, problem: err };
      continue;
    }
    if (!header) {
      header = readHeader(values, source, warn);
      continue;
    }
    if (values.length > header.length) {
      yield {
        line: r.line,
        problem: new LineProblem(
          undefined,
          `${values.length} values, more than the header's ${header.length} columns`,
          "Quote a value that holds a comma; join several diagnoses with ';'.",
        ),
      };
      continue;
    }
    const raw: RawClaimLine = {};
    values.forEach((v, i) => {
      const column = header![i];
      if (column) raw[column] = v;
    });
    yield { line: r.line, raw };
  }
}

/** A header that cannot be read: a usage error naming it. */
function headerError(err: unknown, source: string): unknown {
  if (!(err instanceof LineProblem)) return err;
  return new UsageError(`${source}, line 1 (header): ${err.message}`, HEADER_FIX);
}

/**
 * The claim lines of an input stream, in order, each with its line number: NDJSON when the first
 * character is `{`, else CSV with a header. A file that is empty, not text, a JSON document, or
 * whose header lacks procedure or diagnosis is a usage error. Lines that are no claim (blank,
 * inside a quoted value) are counted in `tally`.
 */
export async function* readClaimRecords(
  input: AsyncIterable<Buffer | string>,
  source: string,
  warn: (message: string) => void,
  tally: ReadTally = { blank: 0, continued: 0 },
): AsyncGenerator<ClaimRecord> {
  const lines = splitLines(input, MAX_LINE_CHARS);
  // The first non-blank line says which format, and is then handed on with the rest.
  const head: Line[] = [];
  let first: string | undefined;
  // next() by hand: leaving a for-await loop would close the generator.
  for (let n = await lines.next(); !n.done; n = await lines.next()) {
    const l = n.value;
    head.push(l);
    if ("tooLong" in l) {
      throw new UsageError(
        `${source}, line ${l.line}: the first line is longer than ${MAX_LINE_CHARS.toLocaleString("en-US")} characters; this is not a claims CSV or NDJSON file`,
        HEADER_FIX,
      );
    }
    const t = l.text.replace(/^\uFEFF/, "").trim();
    if (t !== "") {
      first = t;
      break;
    }
  }
  if (first === undefined)
    throw new UsageError(
      `${source} is empty: there is no line to check`,
      `Give a CSV file with a header line and one claim a line, or NDJSON. ${HEADER_FIX}`,
    );
  if (first.includes("\u0000")) {
    // Text saved as UTF-16 (Excel's "Unicode text"): every other byte of ASCII is a NUL.
    const nuls = first.split("\u0000").length - 1;
    throw new UsageError(
      nuls * 3 >= first.length
        ? `${source}, line ${head.at(-1)!.line}: the file looks like UTF-16 text (every other byte is NUL); save it as UTF-8 CSV`
        : `${source}, line ${head.at(-1)!.line}: not a text file (it holds NUL bytes); give a CSV or NDJSON file`,
      HEADER_FIX,
    );
  }
  if (first.startsWith("["))
    throw new UsageError(
      `${source}, line ${head.at(-1)!.line}: a JSON array, not NDJSON`,
      'Write one JSON object a line (NDJSON), e.g. {"procedure":"CPT:97110","diagnosis":"M54.50"}; `jq -c ".[]"` turns an array into that.',
    );
  const all = (async function* () {
    yield* head;
    yield* lines;
  })();
  if (first.startsWith("{")) yield* readNdjson(all, source, warn, tally);
  else yield* readCsv(all, source, warn, tally);
}
