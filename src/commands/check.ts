import { Option, type Command } from "commander";
import type { ListedOption } from "../completion/values.js";
import type { RunEnvironment } from "../cli/context.js";
import { LOB_CATEGORIES } from "../contract/index.js";
import { CHECK_VERDICTS } from "../views/claim-verdicts.js";
import { collect, examples, withContext } from "./shared.js";
import type { CheckFlags } from "./check-run.js";

const VERDICT_HELP = `
Verdicts, for each policy in scope (in effect on the date of service, applying to the state
with its Medicare sub-state jurisdictions, the LOB and the payer, and listing the procedure):
  procedure not covered   the policy lists the procedure as not covered
  diagnosis not covered   it covers the procedure, but lists a diagnosis of the line as not covered
  supported               it covers the procedure and lists a diagnosis of the line as covered
  diagnosis not listed    it covers the procedure for listed diagnoses, none of them the line's
  no diagnosis limits     it covers the procedure and lists no covered diagnoses
  mentioned only          it mentions the procedure without a coverage decision
  not addressed           no policy in scope lists the procedure (one row for the line)
A row (payer x LOB) gets the first of these, top to bottom, that one of its policies gets; the
policies behind it are listed with their own verdicts and the category (the article's group)
in which the diagnosis is listed.

A policy is read as a whole: an article that lists diagnoses for some of its procedures only
is read as listing them for all of its procedures. The category shown lets you see which group
the diagnosis comes from. ICD-10-CM codes compare dotless and in any case (m5450 = M54.50).
--state CA also asks for NF and SF (Northern and Southern California), NY for DN, QN and UN
(Downstate, Queens, Upstate New York), MO for EM and WM (Eastern and Western Missouri), and
each of those asks for its state too (a statewide policy applies in its parts); add
--exact-state to ask for the code alone.

Input file: CSV with a header (procedure, diagnosis, and optional state, lob, payer, date;
several diagnoses joined by ";") or NDJSON with the same keys. A procedure without a system is
CPT when CPT-shaped, HCPCS otherwise; a diagnosis is ICD10CM. Flags fill the columns a line
leaves empty. A bad line is named on stderr (file, line, column, fix) and skipped; --strict
refuses the whole file first. A line longer than 65,536 characters is a bad line.

How: one POST /v1/policies/filter (every page of 100, with applicability and code groups) per
distinct (procedure, state, LOB, payer, date) of the input, never one per line; --verbose
counts them, --dry-run prints them. --json prints {"lines":[...]} and ndjson one line object a
line, both streamed; csv one row a result. A summary of the verdicts goes to stderr.
`;

function failOnOption(): Option {
  const option: ListedOption = new Option(
    "--fail-on <verdicts>",
    "exit 6 when a row has one of these verdicts (comma-separated, e.g. procedure-not-covered)",
  );
  option.listedValues = CHECK_VERDICTS.map((v) => v.replaceAll(" ", "-"));
  return option;
}

/** `coverage check`: will this claim line meet the coverage policies that apply? */
export function registerCheck(program: Command, run: RunEnvironment): void {
  program
    .command("check")
    .description(
      "check claim lines (procedure, diagnoses, state, LOB, payer, date) against the policies that apply",
    )
    .option("--procedure <code>", "the procedure billed, e.g. CPT:97110 or HCPCS:E0601")
    .option(
      "--diagnosis <codes>",
      "an ICD-10-CM diagnosis of the line (repeatable, comma-separated)",
      collect,
    )
    .option(
      "--state <code>",
      "the patient's state (a split state brings its jurisdictions, a jurisdiction its state)",
    )
    .option(
      "--exact-state",
      "send --state (and a line's state) as given, without sub-state jurisdictions or their state",
    )
    .option("--lob <category>", `the LOB category: ${LOB_CATEGORIES.join(", ")}`)
    .option("--payer <id>", "the payer id (see `coverage payers`)")
    .option("--date <date>", "the date of service, YYYY-MM-DD (default: today)")
    .option("--input <file>", "claim lines from a CSV (with a header) or NDJSON file; - for stdin")
    .option("--strict", "refuse the whole file (exit 2) when a line is bad, before any request")
    .addOption(failOnOption())
    .option("--dry-run", "print the requests instead of sending them")
    .addHelpText(
      "after",
      VERDICT_HELP +
        examples([
          "coverage check --procedure CPT:97110 --diagnosis ICD10CM:M54.50 --state CA --lob medicare_part_b",
          "coverage check --input claims.csv --date 2026-06-15 --format csv",
          "coverage check --input - --format ndjson --fail-on procedure-not-covered < claims.ndjson",
        ]),
    )
    .action(
      withContext<CheckFlags>(run, async (ctx, opts) => {
        const { runCheck } = await import("./check-run.js");
        await runCheck(ctx, opts, run.stdin ?? process.stdin);
      }),
    );
}
