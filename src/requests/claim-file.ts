// Reading `coverage check --input`: CSV with a header or NDJSON, told apart by the first
// character, streamed line by line with a bounded line length, so that neither a huge file nor
// a huge line is ever held whole.
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { StringDecoder } from "node:string_decoder";
import { UsageError } from "../errors.js";
import { CLAIM_COLUMNS, LineProblem, type ClaimColumn, type RawClaimLine } from "./claim-line.js";

/** The longest line read (characters); a longer one is a bad line, never held whole. */
export const MAX_LINE_CHARS = 64 * 1024;

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

/** Physical lines of a byte stream (`\n` or `\r\n`), a line past MAX_LINE_CHARS dropped as it comes. */
async function* splitLines(
  source: AsyncIterable<Buffer | string>,
  max: number,
): AsyncGenerator<Line> {
  const decoder = new StringDecoder("utf8");
  let partial = "";
  let tooLong = false;
  let line = 1;
  const finish = (text: string): Line =>
    tooLong
      ? { line, tooLong: true }
      : { line, text: text.endsWith("\r") ? text.slice(0, -1) : text };
  for await (const chunk of source) {
    const str = typeof chunk === "string" ? chunk : decoder.write(chunk);
    let from = 0;
    for (let nl = str.indexOf("\n"); nl >= 0; nl = str.indexOf("\n", from)) {
      const text = tooLong ? "" : partial + str.slice(from, nl);
      if (text.length > max + 1) tooLong = true;
      yield finish(text);
      line++;
      partial = "";
      tooLong = false;
      from = nl + 1;
    }
    if (!tooLong) {
      partial += str.slice(from);
      if (partial.length > max) {
        tooLong = true;
        partial = "";
      }
    }
  }
  const rest = tooLong ? "" : partial + decoder.end();
  if (tooLong || rest !== "") yield finish(rest);
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
): AsyncGenerator<ClaimRecord> {
  const warned = new Set<string>();
  for await (const l of lines) {
    if ("tooLong" in l) {
      yield { line: l.line, problem: tooLongProblem() };
      continue;
    }
    const text = l.line === 1 ? l.text.replace(/^\uFEFF/, "") : l.text;
    if (text.trim() === "") continue;
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

/** Lines of a CSV input: csv-parse over the bounded lines, problems and records in line order. */
async function* readCsv(
  lines: AsyncGenerator<Line>,
  source: string,
  warn: (m: string) => void,
): AsyncGenerator<ClaimRecord> {
  // Problems by line: lines too long (handed to the parser as empty lines, so its line count
  // stays the file's) and records the parser skips.
  const problems: Array<{ line: number; problem: LineProblem }> = [];
  const text = Readable.from(
    (async function* () {
      for await (const l of lines) {
        if ("tooLong" in l) problems.push({ line: l.line, problem: tooLongProblem() });
        yield "tooLong" in l ? "\n" : `${l.text}\n`;
      }
    })(),
  );
  let header: Array<ClaimColumn | false> | undefined;
  const parser = text.pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      // A row may leave its last columns out (read as empty); more columns than the header is a bad line.
      relax_column_count_less: true,
      // A quote left open would make the rest of the file one field: stop at a bounded size.
      max_record_size: 4 * MAX_LINE_CHARS,
      columns: (names: string[]) => (header = readHeader(names, source, warn)),
    }),
  );
  parser.on("skip", (err: Error & { code?: string; lines?: number }) => {
    problems.push({
      line: err.lines ?? 0,
      problem: new LineProblem(
        undefined,
        err.code === "CSV_RECORD_INCONSISTENT_COLUMNS"
          ? `${err.message.replace(/ on line \d+$/, "")} (the header has ${header?.length ?? "?"})`
          : err.message.replace(/ (?:on|at) line \d+$/, ""),
        "Quote a value that holds a comma; join several diagnoses with ';'.",
      ),
    });
  });
  const flush = function* (before: number) {
    problems.sort((a, b) => a.line - b.line);
    while (problems.length && problems[0]!.line < before) yield problems.shift()!;
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: RawClaimLine;
      info: { lines: number };
    }>) {
      yield* flush(info.lines);
      yield { line: info.lines, raw: record };
    }
  } catch (err) {
    const e = err as Error & { code?: string; lines?: number };
    if (e instanceof UsageError) throw e;
    if (e.code === "CSV_MAX_RECORD_SIZE")
      throw new UsageError(
        `${source}, line ${e.lines ?? "?"}: a quoted value is not closed (the record runs past ${4 * MAX_LINE_CHARS} characters)`,
        'Close the quote ("), or write a quote inside a value as two ("").',
      );
    throw new UsageError(`${source}: not a readable CSV file (${e.message})`, HEADER_FIX);
  }
  yield* flush(Infinity);
}

/**
 * The claim lines of an input stream, in order, each with its line number: NDJSON when the first
 * character is `{`, else CSV with a header. A file that is empty, not text, a JSON document, or
 * whose header lacks procedure or diagnosis is a usage error.
 */
export async function* readClaimRecords(
  input: AsyncIterable<Buffer | string>,
  source: string,
  warn: (message: string) => void,
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
  if (first.includes("\u0000"))
    throw new UsageError(
      `${source}, line ${head.at(-1)!.line}: not a text file (it holds NUL bytes); give a CSV or NDJSON file`,
      HEADER_FIX,
    );
  if (first.startsWith("["))
    throw new UsageError(
      `${source}, line ${head.at(-1)!.line}: a JSON array, not NDJSON`,
      'Write one JSON object a line (NDJSON), e.g. {"procedure":"CPT:97110","diagnosis":"M54.50"}; `jq -c ".[]"` turns an array into that.',
    );
  const all = (async function* () {
    yield* head;
    yield* lines;
  })();
  if (first.startsWith("{")) yield* readNdjson(all, source, warn);
  else yield* readCsv(all, source, warn);
}
