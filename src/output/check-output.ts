// Output of `coverage check`, written as lines come: json (one document, streamed), ndjson (one
// object a line), csv (one row a result), table (in blocks, so a long file is never held whole).
import { CheckFailedError, InterruptedError } from "../errors.js";
import type { OutputFormat } from "./format.js";
import type { CheckResult, CheckVerdict } from "../views/claim-check.js";
import type { RowVerdict } from "../views/claim-verdicts.js";
import type { CheckedClaim } from "../views/claim-rules.js";
import { neededWidth, renderTable, wrapText, type Column } from "./table.js";
import { stripControls } from "../domain/terminal-text.js";
import { measureColumns } from "./text-width.js";
import { formatJson, writeText, type Io } from "./terminal.js";

/** Where checked lines go, one at a time. */
export interface CheckWriter {
  write(claim: CheckedClaim): Promise<void>;
  end(): Promise<void>;
}

/** The columns of `check --format csv`: the line, then one result (lists joined by `;`). */
export const CHECK_CSV_COLUMNS = [
  "line",
  "procedure",
  "diagnoses",
  "state",
  "date",
  "payer_id",
  "lob",
  "verdict",
  "policy_ids",
  "policy_verdicts",
  "categories",
  "rule",
] as const;

/** The verdict a row counts as (an edit's without its brackets). */
function baseVerdict(v: RowVerdict): CheckVerdict {
  const at = v.indexOf(" (");
  return (at < 0 ? v : v.slice(0, at)) as CheckVerdict;
}

/** One CSV row a result. */
export function flattenClaim(claim: CheckedClaim): Array<Record<string, unknown>> {
  return claim.results.map((r) => ({
    line: claim.line,
    procedure: claim.input.procedure,
    diagnoses: claim.input.diagnoses,
    state: claim.input.state,
    date: claim.input.date,
    payer_id: r.payer_id,
    lob: r.lob,
    verdict: r.verdict,
    policy_ids: r.policies.map((p) => p.policy_id),
    policy_verdicts: r.policies.map((p) => p.verdict),
    categories: r.policies.map((p) => p.category ?? ""),
    rule: r.rule ?? "",
  }));
}

type TableRow = { claim: CheckedClaim; result: CheckResult; first: boolean };

const bare = (code: string) => code.slice(code.indexOf(":") + 1);
const longest = (texts: Iterable<string>) => Math.max(0, ...Array.from(texts, (t) => t.length));

/** The verdict coloured on a terminal (red: not covered, green: supported, yellow: not listed). */
const verdictStyle =
  (io: Pick<Io, "chalk">) =>
  (text: string, r: TableRow): string =>
    r.result.verdict.endsWith("not covered")
      ? io.chalk.red(text)
      : r.result.verdict === "supported"
        ? io.chalk.green(text)
        : r.result.verdict === "diagnosis not listed"
          ? io.chalk.yellow(text)
          : text;

/** A row's policies, one a line (`id: verdict (category)`), or the edit or list behind an edit's row. */
const policiesOf = (r: TableRow) =>
  r.result.rule ??
  (r.result.policies
    .map((p) => `${p.policy_id}: ${p.verdict}${p.category ? ` (${p.category})` : ""}`)
    .join("\n") ||
    "-");

/**
 * The narrowest the wrapping columns get: their longest code or policy id (so that wrapping,
 * which breaks only words wider than the column, never cuts one).
 */
function idWidths(rows: readonly TableRow[]) {
  return {
    diagnoses: longest(rows.flatMap((r) => r.claim.input.diagnoses.map(bare))),
    policies: longest(rows.flatMap((r) => r.result.policies.map((p) => `${p.policy_id}:`))),
  };
}

/** The table's columns, one row per line and payer x LOB. */
const tableColumns = (io: Pick<Io, "chalk">, rows: readonly TableRow[]): Column<TableRow>[] => {
  const ids = idWidths(rows);
  return [
    { header: "LINE", value: (r) => (r.first ? String(r.claim.line) : "") },
    { header: "PROCEDURE", value: (r) => (r.first ? r.claim.input.procedure : "") },
    {
      header: "DIAGNOSES",
      value: (r) => (r.first ? r.claim.input.diagnoses.map(bare).join(" ") || "-" : ""),
      flex: true,
      min: Math.max(10, ids.diagnoses),
    },
    ...resultColumns(io, ids.policies),
  ];
};

/** The columns of a line's results: payer, LOB, verdict, policies. */
const resultColumns = (io: Pick<Io, "chalk">, policyWidth: number): Column<TableRow>[] => [
  { header: "PAYER", value: (r) => r.result.payer_id ?? "-" },
  { header: "LOB", value: (r) => r.result.lob ?? "-" },
  { header: "VERDICT", value: (r) => r.result.verdict, style: verdictStyle(io) },
  { header: "POLICIES", value: policiesOf, flex: true, min: Math.max(24, policyWidth) },
];

/**
 * The table of a block of lines: one row per line and payer x LOB when it fits the terminal
 * with every code and id whole; else stacked, as other commands stack: each line's number,
 * procedure and diagnoses on a line of their own, its results as a table under it (each payer
 * and LOB leading its verdict and policies when even those do not fit).
 */
function renderCheckTable(rows: readonly TableRow[], io: Io): string {
  const columns = tableColumns(io, rows);
  if (neededWidth(columns, rows) <= io.columns) return renderTable(columns, rows, io);
  const results = resultColumns(io, idWidths(rows).policies);
  // Payer leads (never wrapped), its LOB beside it, when the results do not fit side by side.
  results[0] = { ...results[0]!, nowrap: true };
  results[1] = { ...results[1]!, beside: true };
  const out: string[] = [];
  for (let at = 0; at < rows.length;) {
    const { claim } = rows[at]!;
    let end = at + 1;
    while (end < rows.length && !rows[end]!.first) end++;
    const diagnoses = claim.input.diagnoses.map(bare).join(" ") || "-";
    const lead = stripControls(`LINE ${claim.line}  ${claim.input.procedure}  ${diagnoses}`);
    if (at > 0) out.push("");
    out.push(
      io.chalk.bold(measureColumns(lead) <= io.columns ? lead : wrapText(lead, io.columns, 5)),
    );
    out.push(renderTable(results, rows.slice(at, end), io));
    at = end;
  }
  return out.join("\n");
}

/** Lines a table block holds before it is printed (a long file prints several blocks). */
const TABLE_BLOCK = 500;

/** A writer for the format; nothing is held beyond one table block. */
export function createCheckWriter(format: OutputFormat, io: Io): CheckWriter {
  if (format === "ndjson")
    return {
      write: (claim) => writeText(io.stdout, formatJson(io, claim) + "\n"),
      end: async () => undefined,
    };
  if (format === "json") {
    let count = 0;
    return {
      write: (claim) =>
        writeText(io.stdout, (count++ ? ",\n" : '{"lines":[\n') + formatJson(io, claim)),
      end: () => writeText(io.stdout, count ? "\n]}\n" : '{"lines":[]}\n'),
    };
  }
  if (format === "csv") {
    let header: string[] | undefined = [...CHECK_CSV_COLUMNS];
    return {
      write: async (claim) => {
        const { toCsv } = await import("./csv.js");
        const rows = flattenClaim(claim);
        if (!rows.length) return;
        await writeText(
          io.stdout,
          toCsv(rows, [...CHECK_CSV_COLUMNS], io.stdoutIsTTY, Boolean(header)).text,
        );
        header = undefined;
      },
      end: async () => {
        if (!header) return;
        const { toCsv } = await import("./csv.js");
        await writeText(
          io.stdout,
          toCsv([{}], header, io.stdoutIsTTY, true).text.split("\r\n")[0] + "\r\n",
        );
      },
    };
  }
  let block: TableRow[] = [];
  let lines = 0;
  const flush = async () => {
    if (!block.length) return;
    await writeText(io.stdout, renderCheckTable(block, io) + "\n");
    block = [];
    lines = 0;
  };
  return {
    write: async (claim) => {
      claim.results.forEach((result, i) => block.push({ claim, result, first: i === 0 }));
      if (++lines >= TABLE_BLOCK) await flush();
    },
    end: flush,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The next line, or undefined as soon as `signal` aborts (a slow answer, a quiet stdin); the
 * listener is removed each time (one that stayed on a pending promise would hold every line).
 */
function nextOrStop<T>(
  lines: AsyncIterator<T>,
  signal: AbortSignal,
): Promise<IteratorResult<T> | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    lines.next().then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (err: unknown) => (signal.removeEventListener("abort", onAbort), reject(err as Error)),
    );
  });
}

/**
 * Writes the checked lines in the format as they come, each whole, then ends the output; when `signal`
 * aborts (Ctrl-C, SIGTERM, SIGHUP), stops before the next line and says so (exit 130).
 */
export async function writeChecks(
  checked: AsyncIterable<CheckedClaim>,
  io: Io,
  summary: CheckSummary,
  signal: AbortSignal,
  format: OutputFormat,
): Promise<void> {
  const writer = createCheckWriter(format, io);
  const lines = checked[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await nextOrStop(lines, signal);
      if (!next || next.done || signal.aborted) break;
      await writer.write(summary.add(next.value));
    }
  } catch (err) {
    // A request cut short by the stop fails: the stop is what happened.
    if (!signal.aborted) throw err;
  }
  if (!signal.aborted) return await writer.end();
  // Ends the reading (once the line under way is done), without waiting for it.
  lines.return?.().catch(() => undefined);
  throw new InterruptedError(summary.stopped("Ctrl-C", format));
}

/** The verdicts counted as lines are written, bad lines named as they come; the summary on stderr. */
export class CheckSummary {
  readonly counts = new Map<CheckVerdict, number>();
  lines = 0;
  skipped = 0;
  /** The number of the last line written. */
  last: number | undefined;

  constructor(
    readonly io: Pick<Io, "stderr">,
    /** The verdicts in the order the summary counts them. */
    readonly verdicts: readonly CheckVerdict[],
    /** Bad lines named one by one, at most this many (the summary counts them all). */
    readonly maxNamed: number,
  ) {}

  /** Counts a checked line's rows (the line handed back, to be written). */
  add(claim: CheckedClaim): CheckedClaim {
    this.lines++;
    this.last = claim.line;
    for (const r of claim.results)
      this.counts.set(baseVerdict(r.verdict), (this.counts.get(baseVerdict(r.verdict)) ?? 0) + 1);
    return claim;
  }

  /** Counts a skipped line, and names it (the first `maxNamed`) with what is wrong. */
  skip(described: string): void {
    if (++this.skipped <= this.maxNamed) this.io.stderr.write(`${described} (skipped)\n`);
  }

  /**
   * The summary line (unless quiet with nothing skipped), its counts adding up to the input's
   * lines (blank ones and those inside a quoted value too); verbose, the requests sent.
   */
  report(
    quiet: boolean,
    requests?: { requests: number; combinations: number },
    other: { blank: number; continued: number } = { blank: 0, continued: 0 },
  ): void {
    const { lines, skipped, counts } = this;
    const summary = this.verdicts.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`);
    const aside = [
      skipped ? `${plural(skipped, "bad line")} skipped` : "",
      other.blank ? plural(other.blank, "blank line") : "",
      other.continued ? `${plural(other.continued, "line")} inside a quoted value` : "",
    ].filter(Boolean);
    if (!quiet || skipped)
      this.io.stderr.write(
        `Checked ${plural(lines, "line")}${aside.length ? ` (${aside.join(", ")})` : ""}: ${summary.join(", ") || "no rows"}.\n`,
      );
    if (requests)
      this.io.stderr.write(
        `check: ${plural(requests.requests, "filter request")} for ${requests.combinations} distinct (procedure, state, LOB, payer, date) of ${plural(lines + skipped, "line")}.\n`,
      );
  }

  /** What a stop by a signal left: the lines written, and where the output ends. */
  stopped(by: string, format: OutputFormat): string {
    const done = `check stopped by ${by} after ${plural(this.lines, "line")}${this.skipped ? ` (${plural(this.skipped, "bad line")} skipped)` : ""}`;
    if (this.last === undefined) return `${done}; nothing was written`;
    if (format === "json")
      return `${done}; the --json document stops after line ${this.last} and is not closed (not valid JSON)`;
    if (format === "table")
      return `${done}; the table shows the lines printed before the stop (up to 500 checked lines were not printed)`;
    return `${done}; the output ends with line ${this.last}, whole`;
  }

  /** Exit 6 (a CheckFailedError) when a row has a verdict --fail-on names. */
  failIfFound(failOn: ReadonlySet<CheckVerdict> | undefined): void {
    const found = failOn && [...failOn].filter((v) => this.counts.has(v));
    if (!found?.length) return;
    throw new CheckFailedError(
      `${found.map((v) => `${plural(this.counts.get(v)!, "row")} ${v}`).join(", ")} (--fail-on)`,
      "The rows are in the output above; exit code 6 says a named verdict was found.",
    );
  }
}
