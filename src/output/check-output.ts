// Output of `coverage check`, written as lines come: json (one document, streamed), ndjson (one
// object a line), csv (one row a result), table (in blocks, so a long file is never held whole).
import { CheckFailedError } from "../errors.js";
import type { OutputFormat } from "./format.js";
import type { CheckResult, CheckVerdict } from "../views/claim-check.js";
import type { RowVerdict } from "../views/claim-verdicts.js";
import type { CheckedClaim } from "../views/claim-rules.js";
import { renderTable, type Column } from "./table.js";
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

/** The table's columns; the verdict coloured on a terminal (red: not covered, green: supported). */
const tableColumns = (io: Pick<Io, "chalk">): Column<TableRow>[] => [
  { header: "LINE", value: (r) => (r.first ? String(r.claim.line) : "") },
  { header: "PROCEDURE", value: (r) => (r.first ? r.claim.input.procedure : "") },
  {
    header: "DIAGNOSES",
    value: (r) => (r.first ? r.claim.input.diagnoses.map(bare).join(" ") || "-" : ""),
    flex: true,
    min: 10,
  },
  { header: "PAYER", value: (r) => r.result.payer_id ?? "-" },
  { header: "LOB", value: (r) => r.result.lob ?? "-" },
  {
    header: "VERDICT",
    value: (r) => r.result.verdict,
    style: (text, r) =>
      r.result.verdict.endsWith("not covered")
        ? io.chalk.red(text)
        : r.result.verdict === "supported"
          ? io.chalk.green(text)
          : r.result.verdict === "diagnosis not listed"
            ? io.chalk.yellow(text)
            : text,
  },
  {
    header: "POLICIES",
    value: (r) =>
      r.result.rule ??
      (r.result.policies
        .map((p) => `${p.policy_id}: ${p.verdict}${p.category ? ` (${p.category})` : ""}`)
        .join("\n") ||
        "-"),
    flex: true,
    min: 24,
  },
];

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
    await writeText(io.stdout, renderTable(tableColumns(io), block, io) + "\n");
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

/** The verdicts counted as lines are written, bad lines named as they come; the summary on stderr. */
export class CheckSummary {
  readonly counts = new Map<CheckVerdict, number>();
  lines = 0;
  skipped = 0;

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
    for (const r of claim.results)
      this.counts.set(baseVerdict(r.verdict), (this.counts.get(baseVerdict(r.verdict)) ?? 0) + 1);
    return claim;
  }

  /** Counts a skipped line, and names it (the first `maxNamed`) with what is wrong. */
  skip(described: string): void {
    if (++this.skipped <= this.maxNamed) this.io.stderr.write(`${described} (skipped)\n`);
  }

  /** The summary line (unless quiet with nothing skipped) and, verbose, the requests sent. */
  report(quiet: boolean, requests?: { requests: number; combinations: number }): void {
    const { lines, skipped, counts } = this;
    const summary = this.verdicts.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`);
    if (!quiet || skipped)
      this.io.stderr.write(
        `Checked ${plural(lines, "line")}${skipped ? ` (${plural(skipped, "bad line")} skipped)` : ""}: ${summary.join(", ") || "no rows"}.\n`,
      );
    if (requests)
      this.io.stderr.write(
        `check: ${plural(requests.requests, "filter request")} for ${requests.combinations} distinct (procedure, state, LOB, payer, date) of ${plural(lines + skipped, "line")}.\n`,
      );
  }

  /** The exit-6 error when a row has a verdict --fail-on names, else undefined. */
  failure(failOn: ReadonlySet<CheckVerdict> | undefined): CheckFailedError | undefined {
    const found = failOn && [...failOn].filter((v) => this.counts.has(v));
    if (!found?.length) return undefined;
    return new CheckFailedError(
      `${found.map((v) => `${plural(this.counts.get(v)!, "row")} ${v}`).join(", ")} (--fail-on)`,
      "The rows are in the output above; exit code 6 says a named verdict was found.",
    );
  }
}
