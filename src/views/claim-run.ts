// The requests behind `coverage check`: one filter request (every page) per distinct
// (procedure, state, LOB, payer, date), its answer prepared once and held for the run; lines
// checked in input order, a bounded number ahead, so memory follows the combinations and the
// window, never the number of lines.
import type { ApiClient } from "../backend/client.js";
import type { Policy } from "../contract/index.js";
import { UsageError } from "../errors.js";
import {
  buildCheckBody,
  combinationKey,
  LineProblem,
  parseClaimLine,
  type CheckedLine,
  type ClaimInput,
  type LineDefaults,
} from "../requests/claim-line.js";
import type { ClaimRecord } from "../requests/claim-file.js";
import {
  judgeLine,
  prepareAnswer,
  type CheckResult,
  type DiagnosisCache,
  type PreparedAnswer,
} from "./claim-check.js";

/** One checked line, as `--json` prints it in `lines` (and ndjson one a line). */
export interface CheckedClaim {
  line: number;
  input: ClaimInput;
  results: CheckResult[];
}

/** A line of the input: checked, or skipped with what is wrong. */
export type LineOutcome = { checked: CheckedClaim } | { line: number; problem: LineProblem };

/** Filter requests sent at once. */
const CONCURRENCY = 4;
/** Lines checked ahead of the one being written. */
const WINDOW = 256;

/** Every payer id of the catalogue (`GET /v1/payers`, every page of 100). */
export async function listPayerIds(client: ApiClient): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ;) {
    const page = await client.payers(client.build.payers({ limit: 100, offset }));
    ids.push(...page.data.map((p) => p.payer_id));
    // A server that ignores paging (the sandbox) or has nothing more: what came is the list.
    if (!page.has_more || page.data.length === 0 || page.offset !== offset) return ids;
    offset += page.data.length;
  }
}

/** A payer id in the catalogue's spelling (compared ignoring case), or a problem naming close ids. */
export function respellPayer(id: string, known: readonly string[]): string {
  if (known.includes(id)) return id;
  const lower = id.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same) return same;
  const near = known.filter(
    (k) => k.toLowerCase().includes(lower) || lower.includes(k.toLowerCase()),
  );
  const shown = (near.length ? near : known).slice(0, 12).join(", ");
  throw new LineProblem(
    "payer",
    `'${id}' is not a payer id of the catalogue (compared ignoring case)`,
    `${near.length ? "Close" : "Some"} payer ids: ${shown || "(none)"}; \`coverage payers\` lists them all.`,
  );
}

/**
 * Checks claim lines against one backend: the answers of each combination fetched once, the
 * payer catalogue once (only when a line names a payer); counts what it sent.
 */
export class ClaimChecker {
  /** Filter requests sent (pages), and distinct combinations asked. */
  readonly stats = { requests: 0, combinations: 0 };
  readonly #answers = new Map<string, Promise<PreparedAnswer>>();
  readonly #diagnoses: DiagnosisCache = new Map();
  #payers: Promise<string[]> | undefined;
  #pagingWarned = false;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(
    readonly client: ApiClient,
    readonly warn: (message: string) => void,
    readonly listPayers: () => Promise<string[]>,
  ) {}

  /** A line's payer in the catalogue's spelling (a problem when the catalogue lacks it). */
  async resolvePayer(line: CheckedLine): Promise<CheckedLine> {
    if (line.payer === undefined) return line;
    this.#payers ??= this.listPayers();
    const payer = respellPayer(line.payer, await this.#payers);
    return payer === line.payer ? line : { ...line, payer, input: { ...line.input, payer } };
  }

  /** Every page of the filter for a line's combination; an answer kept for the run. */
  answerFor(line: CheckedLine): Promise<PreparedAnswer> {
    const key = combinationKey(line);
    let answer = this.#answers.get(key);
    if (!answer) {
      this.stats.combinations++;
      answer = this.#limited(() => this.#fetchAll(line)).then((items) =>
        prepareAnswer(items, line, this.#diagnoses),
      );
      this.#answers.set(key, answer);
    }
    return answer;
  }

  /** One line's rows (its payer already resolved). */
  async check(line: CheckedLine, lineNumber: number): Promise<CheckedClaim> {
    const answer = await this.answerFor(line);
    return { line: lineNumber, input: line.input, results: judgeLine(answer, line) };
  }

  async #limited<T>(task: () => Promise<T>): Promise<T> {
    while (this.#running >= CONCURRENCY) await new Promise<void>((r) => this.#waiting.push(r));
    this.#running++;
    try {
      return await task();
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }

  async #fetchAll(line: CheckedLine): Promise<Policy[]> {
    const items: Policy[] = [];
    for (let offset = 0; ;) {
      this.stats.requests++;
      const page = await this.client.filter(
        this.client.build.filter(buildCheckBody(line, offset), checkFlagFor),
      );
      items.push(...page.data);
      if (page.offset !== offset) {
        if (!this.#pagingWarned)
          this.warn(
            `the server answered offset ${page.offset} when asked for ${offset}; it ignores paging (sandbox?), so each combination is checked against its first page only (said once)`,
          );
        this.#pagingWarned = true;
        return items;
      }
      if (!page.has_more) return items;
      if (page.data.length === 0) {
        if (!this.#pagingWarned)
          this.warn(
            `the server sent an empty page at offset ${offset} yet says it has more; ${line.input.procedure} was checked against what came before`,
          );
        this.#pagingWarned = true;
        return items;
      }
      offset += page.data.length;
    }
  }
}

/** The column behind a validation location of a check's filter body. */
export function checkFlagFor(loc: Array<string | number>): string | undefined {
  const path = loc.join(".");
  if (path.startsWith("body.policies.code_refs")) return "procedure";
  if (path.startsWith("body.policies.states")) return "state";
  if (path.startsWith("body.policies.lobs")) return "lob";
  if (path.startsWith("body.policies.payer_ids")) return "payer";
  if (path.startsWith("body.policies.effective_date")) return "date";
  return undefined;
}

/** A line parsed with the defaults, or the problem that skips it. */
export function parseRecord(
  record: ClaimRecord,
  defaults: LineDefaults,
): { line: number; parsed: CheckedLine } | { line: number; problem: LineProblem } {
  if ("problem" in record) return record;
  try {
    return { line: record.line, parsed: parseClaimLine(record.raw, defaults) };
  } catch (err) {
    if (err instanceof LineProblem) return { line: record.line, problem: err };
    throw err;
  }
}

/**
 * Every line's outcome, in input order, checked up to WINDOW lines ahead of the one handed
 * out (so requests overlap while the output keeps the input's order).
 */
export async function* checkRecords(
  records: AsyncIterable<ClaimRecord>,
  defaults: LineDefaults,
  checker: ClaimChecker,
): AsyncGenerator<LineOutcome> {
  const queue: Array<Promise<LineOutcome>> = [];
  for await (const record of records) {
    const r = parseRecord(record, defaults);
    const outcome: Promise<LineOutcome> =
      "problem" in r
        ? Promise.resolve(r)
        : checker
            .resolvePayer(r.parsed)
            .then(async (line): Promise<LineOutcome> => ({
              checked: await checker.check(line, r.line),
            }))
            .catch((err: unknown) => {
              if (err instanceof LineProblem) return { line: r.line, problem: err };
              throw err;
            });
    // Awaited in order below; until then a failure must not count as unhandled.
    outcome.catch(() => undefined);
    queue.push(outcome);
    if (queue.length >= WINDOW) yield await queue.shift()!;
  }
  while (queue.length) yield await queue.shift()!;
}

/** One claim line as `coverage mcp`'s `check_claim` takes it (codes as `SYSTEM:CODE` or bare). */
export interface ClaimCheckInput {
  procedure: string;
  diagnoses?: string[] | string;
  state?: string;
  lob?: string;
  payer?: string;
  /** Date of service, YYYY-MM-DD; default `today`. */
  date?: string;
}

/**
 * One line checked on its own (what `coverage mcp`'s `check_claim` answers): the `--json` line
 * object. A bad value is a UsageError naming the field and the fix.
 */
export async function checkOneClaim(
  client: ApiClient,
  input: ClaimCheckInput,
  options: { today: string; exactState?: boolean; warn?: (message: string) => void },
): Promise<CheckedClaim> {
  const warn = options.warn ?? (() => undefined);
  const checker = new ClaimChecker(client, warn, () => listPayerIds(client));
  try {
    const line = parseClaimLine(
      { ...input, diagnosis: input.diagnoses },
      { date: options.today, exactState: options.exactState },
    );
    return await checker.check(await checker.resolvePayer(line), 1);
  } catch (err) {
    if (!(err instanceof LineProblem)) throw err;
    const field = err.column === "diagnosis" ? "diagnoses" : (err.column ?? "procedure");
    throw new UsageError(`${field}: ${err.message}`, err.fix);
  }
}
