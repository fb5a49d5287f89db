// The third stage of `coverage check`: the client asked. One filter request (every page) per
// distinct question, its answer prepared once and held for the run; claims answered in input
// order, a bounded number ahead, so memory follows the questions and the window, never the
// number of lines.
import type { ApiClient } from "../backend/client.js";
import type { Policy } from "../contract/index.js";
import type { ParsedLine, SkippedLine } from "../requests/claim-input.js";
import {
  buildCheckBody,
  checkFlagFor,
  combinationKey,
  type ClaimLines,
} from "../requests/claim-questions.js";
import { LineProblem, respellPayer, type CheckedLine } from "../requests/claim-line.js";
import { prepareAnswer, type DiagnosisCache, type PreparedAnswer } from "./claim-check.js";

/** One line with what the client answered for it: what the rules read. */
export interface AnsweredLine {
  line: number;
  /** The line's values, its payer in the catalogue's spelling. */
  parsed: CheckedLine;
  /** The coverage policies in scope of its question. */
  answer: PreparedAnswer;
}

/** A claim's lines with their answers (rules that look across lines see them all). */
export interface AnsweredClaim {
  lines: AnsweredLine[];
}

/** Filter requests sent at once. */
const CONCURRENCY = 4;
/** Claims answered ahead of the one handed on. */
const WINDOW = 256;

/**
 * The answers of one backend: each question fetched once, the payer catalogue once (only when
 * a line names a payer); counts what it sent.
 */
export class ClaimAnswers {
  /** Filter requests sent (pages), and distinct questions asked. */
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

  /** Every page of the filter for a line's question; an answer kept for the run. */
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

  /** One line answered (its payer resolved first), or skipped with the payer's problem. */
  async answerLine(l: ParsedLine): Promise<AnsweredLine | SkippedLine> {
    try {
      const parsed = await this.resolvePayer(l.parsed);
      return { line: l.line, parsed, answer: await this.answerFor(parsed) };
    } catch (err) {
      if (err instanceof LineProblem) return { line: l.line, problem: err };
      throw err;
    }
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

/** A claim's lines answered: lines skipped (a payer the catalogue lacks) first, then the claim. */
async function answerClaim(
  claim: ClaimLines,
  answers: ClaimAnswers,
): Promise<Array<AnsweredClaim | SkippedLine>> {
  const done = await Promise.all(claim.lines.map((l) => answers.answerLine(l)));
  const skipped = done.filter((d): d is SkippedLine => "problem" in d);
  const lines = done.filter((d): d is AnsweredLine => !("problem" in d));
  return lines.length ? [...skipped, { lines }] : skipped;
}

/**
 * Every claim answered, in input order, up to WINDOW claims ahead of the one handed on (so
 * requests overlap while the output keeps the input's order), each handed on once it and those
 * before it are answered; skipped lines passed on in place.
 */
export async function* answerClaims(
  claims: AsyncIterable<ClaimLines | SkippedLine>,
  answers: ClaimAnswers,
): AsyncGenerator<AnsweredClaim | SkippedLine> {
  type Entry = { outcome: Promise<Array<AnsweredClaim | SkippedLine>>; settled: Promise<void> };
  const queue: Entry[] = [];
  const reading = claims[Symbol.asyncIterator]();
  // A read left behind by a stop must not fail unhandled (it is awaited while the run goes on).
  const readNext = () => {
    const read = reading.next();
    read.catch(() => undefined);
    return read;
  };
  let next = readNext();
  for (;;) {
    // The first claim is handed on once answered, even while the next line is slow to come (a
    // quiet stdin); reading goes on meanwhile, at most WINDOW claims ahead.
    const head = queue[0];
    const read = head && queue.length >= WINDOW ? undefined : next;
    const first = await (read && head
      ? Promise.race([read, head.settled])
      : (read ?? head!.settled));
    if (first === undefined) {
      yield* await queue.shift()!.outcome;
      continue;
    }
    if (first.done) break;
    next = readNext();
    const c = first.value;
    const outcome = "problem" in c ? Promise.resolve([c]) : answerClaim(c, answers);
    // Awaited in order; until then a failure must not count as unhandled.
    queue.push({
      outcome,
      settled: outcome.then(
        () => undefined,
        () => undefined,
      ),
    });
  }
  while (queue.length) yield* await queue.shift()!.outcome;
}
