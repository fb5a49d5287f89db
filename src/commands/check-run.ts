// The flow of `coverage check`: the lines (flags or --input), --strict's pass before any request,
// --dry-run, then the lines checked and written as they come, bad lines named on stderr, the
// verdict summary, and --fail-on.
import { createReadStream, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { CommandContext } from "../cli/context.js";
import { listCatalogueIds } from "../backend/catalogue-ids.js";
import { CheckFailedError, UsageError } from "../errors.js";
import { stripControls } from "../output/terminal.js";
import { readClaimRecords, type ClaimRecord } from "../requests/claim-file.js";
import {
  buildCheckBody,
  combinationKey,
  LineProblem,
  parseClaimLine,
  type LineDefaults,
} from "../requests/claim-line.js";
import { CHECK_VERDICTS, type CheckVerdict } from "../views/claim-check.js";
import {
  checkFlagFor,
  checkRecords,
  ClaimChecker,
  parseRecord,
  respellPayer,
} from "../views/claim-run.js";

/** The options of `coverage check` as commander hands them over. */
export interface CheckFlags {
  procedure?: string;
  diagnosis?: string[];
  state?: string;
  lob?: string;
  payer?: string;
  date?: string;
  input?: string;
  exactState?: boolean;
  strict?: boolean;
  failOn?: string;
  dryRun?: boolean;
}

/** Bad lines named one by one on stderr, at most this many (the summary counts them all). */
const MAX_NAMED_PROBLEMS = 100;

/** `--fail-on` values (any case, `-` or `_` for spaces) as verdicts. */
export function parseFailOn(raw: string | undefined): Set<CheckVerdict> | undefined {
  if (raw === undefined) return undefined;
  const verdicts = raw.split(",").map((v) =>
    v
      .trim()
      .toLowerCase()
      .replace(/[-_\s]+/g, " "),
  );
  const bad = verdicts.filter((v) => !(CHECK_VERDICTS as readonly string[]).includes(v));
  if (bad.length || verdicts.length === 0)
    throw new UsageError(
      `--fail-on '${bad[0] ?? raw}' is not a verdict`,
      `Use one or more of: ${CHECK_VERDICTS.map((v) => v.replaceAll(" ", "-")).join(", ")} (comma-separated).`,
    );
  return new Set(verdicts as CheckVerdict[]);
}

function describeProblem(line: number, problem: LineProblem, source: string): string {
  const where = `${source}, line ${line}${problem.column ? `, column ${problem.column}` : ""}`;
  return stripControls(`${where}: ${problem.message}. ${problem.fix}`);
}

/** A problem of a value given by flag: exit 2 naming the flag. */
function flagError(err: unknown): never {
  if (!(err instanceof LineProblem)) throw err;
  const flag = err.column === "diagnosis" ? "--diagnosis" : `--${err.column ?? "procedure"}`;
  throw new UsageError(`${flag} ${err.message}`, err.fix);
}

/** The values every line falls back to, checked as a line's are. */
async function readDefaults(ctx: CommandContext, flags: CheckFlags): Promise<LineDefaults> {
  const date = flags.date ?? (await ctx.today());
  const defaults: LineDefaults = { date, exactState: flags.exactState };
  try {
    // A line of the flags alone checks each value and gives it in the API's spelling.
    const probe = parseClaimLine(
      { procedure: "CPT:97110", state: flags.state, lob: flags.lob, payer: flags.payer, date },
      defaults,
    );
    return { ...defaults, state: probe.state, lob: probe.lob, payer: probe.payer };
  } catch (err) {
    flagError(err);
  }
}

/** The lines of the run: one from the flags, or the input file's, streamed. */
function openRecords(
  ctx: CommandContext,
  flags: CheckFlags,
  stdin: NodeJS.ReadableStream,
  file: string | undefined,
  source: string,
): AsyncIterable<ClaimRecord> {
  if (file === undefined) {
    const raw = { procedure: flags.procedure, diagnosis: flags.diagnosis?.join(";") };
    return (async function* () {
      yield { line: 1, raw };
    })();
  }
  let stream: AsyncIterable<Buffer>;
  if (file === "-") stream = stdin as AsyncIterable<Buffer>;
  else {
    let isDir = false;
    try {
      isDir = statSync(file).isDirectory();
    } catch (err) {
      throw new UsageError(
        `--input: cannot read '${file}' (${(err as NodeJS.ErrnoException).code ?? "error"})`,
        "Give a readable CSV or NDJSON file, or - for stdin.",
      );
    }
    if (isDir)
      throw new UsageError(
        `--input: '${file}' is a folder`,
        "Give a CSV or NDJSON file, or - for stdin.",
      );
    stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  }
  return readClaimRecords(stream, source, ctx.warn);
}

/** Copies stdin to a temporary file, so that --strict can read it twice (removed after). */
async function spoolStdin(
  stdin: NodeJS.ReadableStream,
): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "coverage-check-"));
  const file = path.join(dir, "stdin");
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(stdin, createWriteStream(file));
  } catch (err) {
    await remove();
    throw err;
  }
  return { file, remove };
}

/** --strict: every line read and checked first; any bad one refuses the file before a request. */
async function refuseBadLines(
  ctx: CommandContext,
  flags: CheckFlags,
  file: string,
  defaults: LineDefaults,
  source: string,
) {
  const problems: string[] = [];
  let count = 0;
  const payers = new Map<string, number>();
  for await (const record of openRecords(ctx, flags, process.stdin, file, source)) {
    const r = parseRecord(record, defaults);
    if ("problem" in r) {
      if (++count <= MAX_NAMED_PROBLEMS) problems.push(describeProblem(r.line, r.problem, source));
    } else if (r.parsed.payer !== undefined && !payers.has(r.parsed.payer))
      payers.set(r.parsed.payer, r.line);
  }
  if (count === 0 && payers.size) {
    const known = await listCatalogueIds(await ctx.client(), "payer", ctx.warn);
    for (const [payer, line] of payers)
      try {
        respellPayer(payer, known);
      } catch (err) {
        if (!(err instanceof LineProblem)) throw err;
        count++;
        problems.push(describeProblem(line, err, source));
      }
  }
  if (count)
    throw new UsageError(
      `--strict: ${count} bad line${count > 1 ? "s" : ""} in ${source}; nothing was checked`,
      "Fix the lines named above, or leave out --strict to check the good lines and skip the bad ones.",
      count > problems.length ? [...problems, `… and ${count - problems.length} more`] : problems,
    );
}

/** Runs `coverage check`. */
export async function runCheck(
  ctx: CommandContext,
  flags: CheckFlags,
  stdin: NodeJS.ReadableStream,
): Promise<void> {
  if (flags.input !== undefined && (flags.procedure !== undefined || flags.diagnosis !== undefined))
    throw new UsageError(
      "--input reads the procedure and diagnoses from the file; --procedure and --diagnosis are for one line",
      "Give either --input FILE (or - for stdin) or --procedure CODE [--diagnosis CODE ...].",
    );
  if (flags.input === undefined && flags.procedure === undefined)
    throw new UsageError(
      "check needs --procedure CODE (one line) or --input FILE (a CSV or NDJSON file, - for stdin)",
      "Example: coverage check --procedure CPT:97110 --diagnosis ICD10CM:M54.50 --state CA",
    );
  const failOn = parseFailOn(flags.failOn);
  const defaults = await readDefaults(ctx, flags);
  const source = flags.input === undefined ? "flags" : flags.input === "-" ? "stdin" : flags.input;
  const spooled = flags.strict && flags.input === "-" ? await spoolStdin(stdin) : undefined;
  try {
    const file = spooled?.file ?? flags.input;
    if (flags.strict && file !== undefined)
      await refuseBadLines(ctx, flags, file, defaults, source);
    const records = openRecords(ctx, flags, stdin, file, source);
    if (flags.dryRun) return await printRequests(ctx, records, defaults, source);
    await checkAll(ctx, records, defaults, source, failOn, flags.input === undefined);
  } finally {
    await spooled?.remove();
  }
}

/** --dry-run: the first page's request of each distinct combination, once. */
async function printRequests(
  ctx: CommandContext,
  records: AsyncIterable<ClaimRecord>,
  defaults: LineDefaults,
  source: string,
) {
  const client = ctx.offlineClient();
  const seen = new Set<string>();
  for await (const record of records) {
    const r = parseRecord(record, defaults);
    if ("problem" in r) {
      ctx.io.stderr.write(describeProblem(r.line, r.problem, source) + " (skipped)\n");
      continue;
    }
    const key = combinationKey(r.parsed);
    if (seen.has(key)) continue;
    seen.add(key);
    ctx.printDryRun(client.build.filter(buildCheckBody(r.parsed), checkFlagFor));
  }
  ctx.notice(
    `${seen.size} request${seen.size === 1 ? "" : "s"}; further pages are asked for while an answer says has_more.`,
  );
}

async function checkAll(
  ctx: CommandContext,
  records: AsyncIterable<ClaimRecord>,
  defaults: LineDefaults,
  source: string,
  failOn: Set<CheckVerdict> | undefined,
  fromFlags: boolean,
) {
  const client = await ctx.client();
  const checker = new ClaimChecker(client, ctx.warn, () =>
    listCatalogueIds(client, "payer", ctx.warn),
  );
  const { createCheckWriter } = await import("../output/check-output.js");
  const writer = createCheckWriter(ctx.settings.format, ctx.io);
  const counts = new Map<CheckVerdict, number>();
  let lines = 0;
  let skipped = 0;
  for await (const outcome of checkRecords(records, defaults, checker)) {
    if ("problem" in outcome) {
      if (fromFlags) flagError(outcome.problem);
      if (++skipped <= MAX_NAMED_PROBLEMS)
        ctx.io.stderr.write(
          describeProblem(outcome.line, outcome.problem, source) + " (skipped)\n",
        );
      continue;
    }
    lines++;
    for (const r of outcome.checked.results)
      counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
    await writer.write(outcome.checked);
  }
  await writer.end();
  const summary = CHECK_VERDICTS.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`);
  if (!ctx.settings.quiet || skipped)
    ctx.io.stderr.write(
      `Checked ${lines} line${lines === 1 ? "" : "s"}${skipped ? ` (${skipped} bad line${skipped === 1 ? "" : "s"} skipped)` : ""}: ${summary.join(", ") || "no rows"}.\n`,
    );
  if (ctx.settings.verbose)
    ctx.io.stderr.write(
      `check: ${checker.stats.requests} filter request${checker.stats.requests === 1 ? "" : "s"} for ${checker.stats.combinations} distinct (procedure, state, LOB, payer, date) of ${lines + skipped} line${lines + skipped === 1 ? "" : "s"}.\n`,
    );
  const failed = failOn && [...failOn].filter((v) => counts.has(v));
  if (failed?.length)
    throw new CheckFailedError(
      `${failed.map((v) => `${counts.get(v)} row${counts.get(v) === 1 ? "" : "s"} ${v}`).join(", ")} (--fail-on)`,
      "The rows are in the output above; exit code 6 says a named verdict was found.",
    );
}
