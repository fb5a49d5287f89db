// The first stage of `coverage check`: its flags read, the lines opened (one from the flags, or
// the --input file or stdin, streamed), --strict's pass that refuses a file with a bad line
// before any request, and each line parsed with the flags' defaults.
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { UsageError } from "../errors.js";
import {
  CHECK_VERDICTS,
  EDIT_SETTINGS,
  type CheckVerdict,
  type EditSetting,
} from "../views/claim-verdicts.js";
import { stateExpansionNotice } from "./parse-flags.js";
import { readClaimRecords, type ClaimRecord, type ReadTally } from "./claim-file.js";
import {
  describeProblem,
  LineProblem,
  parseClaimLine,
  respellPayer,
  type CheckedLine,
  type LineDefaults,
} from "./claim-line.js";

export { describeProblem } from "./claim-line.js";

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
  units?: string;
  modifiers?: string[];
  setting?: string;
}

/** A line parsed and ready to ask about. */
export interface ParsedLine {
  line: number;
  parsed: CheckedLine;
}

/** A line skipped, with what is wrong. */
export interface SkippedLine {
  line: number;
  problem: LineProblem;
}

/** Bad lines named one by one on stderr, at most this many (the summary counts them all). */
export const MAX_NAMED_PROBLEMS = 100;

/** Where the lines come from, as messages name it: `flags`, `stdin` or the file. */
export function sourceName(flags: CheckFlags): string {
  return flags.input === undefined ? "flags" : flags.input === "-" ? "stdin" : flags.input;
}

/** The flags checked against each other, and `--fail-on` read. */
export function checkFlags(flags: CheckFlags): Set<CheckVerdict> | undefined {
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
  return parseFailOn(flags.failOn);
}

/** `--setting`: whose NCCI tables the edits apply (Medicare's; practitioner by default). */
export function editScopeOf(flags: CheckFlags): { setting: EditSetting; program: "medicare" } {
  const setting = (flags.setting ?? "practitioner").trim().toLowerCase();
  if (!(EDIT_SETTINGS as readonly string[]).includes(setting))
    throw new UsageError(
      `--setting '${flags.setting}' is not one of ${EDIT_SETTINGS.join(", ")}`,
      "Give --setting practitioner (the default), hospital (outpatient) or dme (supplier).",
    );
  return { setting: setting as EditSetting, program: "medicare" };
}

/** `--fail-on` values (any case, `-` or `_` for spaces) as verdicts. */
export function parseFailOn(raw: string | undefined): Set<CheckVerdict> | undefined {
  if (raw === undefined) return undefined;
  const fold = (v: string) =>
    v
      .trim()
      .toLowerCase()
      .replace(/[-_\s]+/g, " ");
  const verdicts = raw.split(",").map(fold);
  // Compared in any case and spacing (`units-over-mue` is `units over MUE`, `add-on-without-primary`
  // is `add-on without primary`).
  const named = verdicts.map((v) => CHECK_VERDICTS.find((c) => fold(c) === v));
  const bad = verdicts.filter((_v, i) => named[i] === undefined);
  if (bad.length || verdicts.length === 0)
    throw new UsageError(
      `--fail-on '${bad[0] ?? raw}' is not a verdict`,
      `Use one or more of: ${CHECK_VERDICTS.map((v) => v.replaceAll(" ", "-")).join(", ")} (comma-separated).`,
    );
  return new Set(named as CheckVerdict[]);
}

/** A problem of a value given by flag: exit 2 naming the flag. */
export function flagError(err: unknown): never {
  if (!(err instanceof LineProblem)) throw err;
  const flag = err.column === "diagnosis" ? "--diagnosis" : `--${err.column ?? "procedure"}`;
  throw new UsageError(`${flag} ${err.message}`, err.fix);
}

/** What is done with a skipped line: from flags, exit 2 naming the flag; from a file, `report` its description. */
export function onSkipped(
  flags: CheckFlags,
  report: (described: string) => void,
): (skipped: SkippedLine) => void {
  const source = sourceName(flags);
  return (skipped) =>
    flags.input === undefined
      ? flagError(skipped.problem)
      : report(describeProblem(skipped, source));
}

/**
 * The values every line falls back to (`date`: --date or the engine's today), checked as a
 * line's are; `inform` says when --state is widened (a split state's parts, or a part's state),
 * as every command with a state says it (the lines' own states are not).
 */
export function readDefaults(
  flags: CheckFlags,
  date: string,
  inform: (message: string) => void,
): LineDefaults {
  const defaults: LineDefaults = { date, exactState: flags.exactState };
  let probe: CheckedLine;
  try {
    // A line of the flags alone checks each value and gives it in the API's spelling.
    probe = parseClaimLine(
      { procedure: "CPT:97110", state: flags.state, lob: flags.lob, payer: flags.payer, date },
      defaults,
    );
  } catch (err) {
    flagError(err);
  }
  const state = flags.state === undefined ? undefined : [flags.state];
  const widened = stateExpansionNotice({ state, exactState: flags.exactState });
  if (widened) inform(widened);
  return { ...defaults, state: probe.state, lob: probe.lob, payer: probe.payer };
}

/** The lines of the run: one from the flags, or the file's (or stdin's), streamed. */
function openRecords(
  flags: CheckFlags,
  stdin: NodeJS.ReadableStream,
  file: string | undefined,
  source: string,
  warn: (message: string) => void,
  tally?: ReadTally,
): AsyncIterable<ClaimRecord> {
  if (file === undefined) {
    const raw = {
      procedure: flags.procedure,
      diagnosis: flags.diagnosis?.join(";"),
      units: flags.units,
      modifiers: flags.modifiers?.join(";"),
    };
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
  return readClaimRecords(stream, source, warn, tally);
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

/** A line parsed with the defaults, or the problem that skips it. */
export function parseRecord(record: ClaimRecord, defaults: LineDefaults): ParsedLine | SkippedLine {
  if ("problem" in record) return record;
  try {
    return { line: record.line, parsed: parseClaimLine(record.raw, defaults) };
  } catch (err) {
    if (err instanceof LineProblem) return { line: record.line, problem: err };
    throw err;
  }
}

/** --strict: every line read and checked first; any bad one refuses the file before a request. */
async function refuseBadLines(
  records: AsyncIterable<ClaimRecord>,
  defaults: LineDefaults,
  source: string,
  knownPayers: () => Promise<string[]>,
) {
  const problems: string[] = [];
  let count = 0;
  const payers = new Map<string, number>();
  for await (const record of records) {
    const r = parseRecord(record, defaults);
    if ("problem" in r) {
      if (++count <= MAX_NAMED_PROBLEMS) problems.push(describeProblem(r, source));
    } else if (r.parsed.payer !== undefined && !payers.has(r.parsed.payer))
      payers.set(r.parsed.payer, r.line);
  }
  if (count === 0 && payers.size) {
    const known = await knownPayers();
    for (const [payer, line] of payers)
      try {
        respellPayer(payer, known);
      } catch (err) {
        if (!(err instanceof LineProblem)) throw err;
        count++;
        problems.push(describeProblem({ line, problem: err }, source));
      }
  }
  if (count)
    throw new UsageError(
      `--strict: ${count} bad line${count > 1 ? "s" : ""} in ${source}; nothing was checked`,
      "Fix the lines named above, or leave out --strict to check the good lines and skip the bad ones.",
      count > problems.length ? [...problems, `… and ${count - problems.length} more`] : problems,
    );
}

/**
 * The parsed lines of the run, in input order, bad ones as skipped; with --strict the whole
 * input is read and checked first (stdin spooled to a temporary file, removed by `close`).
 */
export async function openClaimLines(
  flags: CheckFlags,
  stdin: NodeJS.ReadableStream,
  options: {
    defaults: LineDefaults;
    warn: (message: string) => void;
    knownPayers: () => Promise<string[]>;
  },
): Promise<{
  lines: AsyncIterable<ParsedLine | SkippedLine>;
  /** The lines that are no claim, counted as they are read. */
  tally: ReadTally;
  close: () => Promise<void>;
}> {
  const { defaults, warn } = options;
  const source = sourceName(flags);
  const spooled = flags.strict && flags.input === "-" ? await spoolStdin(stdin) : undefined;
  const close = async () => await spooled?.remove();
  try {
    const file = spooled?.file ?? flags.input;
    if (flags.strict && file !== undefined)
      await refuseBadLines(
        openRecords(flags, stdin, file, source, warn),
        defaults,
        source,
        options.knownPayers,
      );
    const tally: ReadTally = { blank: 0, continued: 0 };
    const records = openRecords(flags, stdin, file, source, warn, tally);
    const lines = (async function* () {
      for await (const record of records) yield parseRecord(record, defaults);
    })();
    return { lines, tally, close };
  } catch (err) {
    await close();
    throw err;
  }
}
