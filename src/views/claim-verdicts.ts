// The verdict names and options of `coverage check`, apart from the rules: `--help` and
// completions need them without loading the rules.
import { LOB_CATEGORIES } from "../contract/index.js";

/** A policy's verdicts, first to last in precedence: a group gets the first one of its policies. */
export const POLICY_VERDICTS = [
  "procedure not covered",
  "diagnosis not covered",
  "supported",
  "diagnosis not listed",
  "no diagnosis limits",
  "mentioned only",
] as const;
export type PolicyVerdict = (typeof POLICY_VERDICTS)[number];

/** Medicare's edits on a snapshot that holds them; a row says which (`bundled (NCCI with 64479)`). */
export const EDIT_VERDICTS = [
  "bundled",
  "units over MUE",
  "add-on without primary",
  "prior authorization required",
] as const;
export type EditVerdict = (typeof EDIT_VERDICTS)[number];

/**
 * Every verdict a row can have: a policy's, `not addressed` when no policy lists the code, or
 * an edit's.
 */
export const CHECK_VERDICTS = [...POLICY_VERDICTS, "not addressed", ...EDIT_VERDICTS] as const;
export type CheckVerdict = (typeof CHECK_VERDICTS)[number];

/** A row's verdict: a verdict, or an edit's with what it is about in brackets. */
export type RowVerdict = CheckVerdict | `${EditVerdict} (${string})`;

/** What `coverage check --help` says after the options: the verdicts, the input, the cost. */
export const CHECK_HELP = `
Verdicts, for each policy in scope (in effect on the date of service, applying to the state
with its Medicare sub-state jurisdictions, the LOB and the payer, and listing the procedure):
  procedure not covered   the policy lists the procedure as not covered
  diagnosis not covered   it covers the procedure, but lists a diagnosis of the line as not covered
  supported               it covers the procedure and lists a diagnosis of the line as covered
  diagnosis not listed    it covers the procedure for listed diagnoses, none of them the line's
  no diagnosis limits     it covers the procedure and lists no covered diagnoses
  mentioned only          it mentions the procedure without a coverage decision
  not addressed           no policy in scope lists the procedure (one row for the line)
On a snapshot holding Medicare's edits (data import edits|pa), beside them:
  bundled (NCCI with C)   a PTP edit pairs the line's code (column 2) with C on another line
                          of the claim that day; modifier indicator 1 and a bypass modifier on
                          the line (59, XE, XS, XP, XU, anatomic) let it pass
  units over MUE (N > M)  MAI 1: the line's units; MAI 2 and 3: the day's units of the code
                          over the claim's lines
  add-on without primary (NCCI AOC type T)  an add-on code billed that day without one of
                          the primaries CMS lists (type 1), or with no other code (types 2, 3)
  prior authorization required (LIST)  the code is on a list for the state and date
  The PTP and MUE tables applied are Medicare's practitioner tables; --setting hospital or dme
  applies the outpatient hospital or DME supplier tables instead.
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

Input file: CSV with a header (procedure, diagnosis, and optional state, lob, payer, date,
claim, units, modifiers; several diagnoses or modifiers joined by ";"; consecutive lines of one
claim are checked together) or NDJSON with the same keys. A procedure without a system is
CPT when CPT-shaped, HCPCS otherwise; a diagnosis is ICD10CM. Flags fill the columns a line
leaves empty. A bad line is named on stderr (file, line, column, fix) and skipped; --strict
refuses the whole file first. A line longer than 65,536 characters is a bad line. A quote
that opens a value and is not closed on its line (a value may hold line ends, up to 262,144
characters) refuses the file (exit 2) naming the line where it opened.

How: one POST /v1/policies/filter (every page of 100, with applicability and code groups) per
distinct (procedure, state, LOB, payer, date) of the input, never one per line; --verbose
counts them, --dry-run prints them. --json prints {"lines":[...]} and ndjson one line object a
line, both streamed; csv one row a result. A summary of the verdicts goes to stderr.
`;

/** The settings whose NCCI tables `check --setting` applies (CMS's PTP and MUE tables). */
export const EDIT_SETTINGS = ["practitioner", "hospital", "dme"] as const;
export type EditSetting = (typeof EDIT_SETTINGS)[number];

/** The options of `coverage check` (but --fail-on and --dry-run, last), in --help order. */
export const CHECK_OPTIONS: ReadonlyArray<{
  flags: string;
  description: string;
  repeatable?: true;
}> = [
  {
    flags: "--procedure <code>",
    description: "the procedure billed, e.g. CPT:97110 or HCPCS:E0601",
  },
  {
    flags: "--diagnosis <codes>",
    description: "an ICD-10-CM diagnosis of the line (repeatable, comma-separated)",
    repeatable: true,
  },
  {
    flags: "--state <code>",
    description:
      "the patient's state (a split state brings its jurisdictions, a jurisdiction its state)",
  },
  {
    flags: "--exact-state",
    description:
      "send --state (and a line's state) as given, without sub-state jurisdictions or their state",
  },
  { flags: "--units <n>", description: "units of service of the line (default 1)" },
  {
    flags: "--modifiers <list>",
    description: "the line's modifiers (repeatable, comma-separated), e.g. 59,RT",
    repeatable: true,
  },
  { flags: "--lob <category>", description: `the LOB category: ${LOB_CATEGORIES.join(", ")}` },
  { flags: "--payer <id>", description: "the payer id (see `coverage payers`)" },
  { flags: "--date <date>", description: "the date of service, YYYY-MM-DD (default: today)" },
  {
    flags: "--input <file>",
    description: "claim lines from a CSV (with a header) or NDJSON file; - for stdin",
  },
  {
    flags: "--setting <setting>",
    description: `whose NCCI PTP and MUE tables the edits apply: ${EDIT_SETTINGS.join(", ")} (default practitioner)`,
  },
  {
    flags: "--strict",
    description: "refuse the whole file (exit 2) when a line is bad, before any request",
  },
];

/** The examples of `coverage check --help`. */
export const CHECK_EXAMPLES = [
  "coverage check --procedure CPT:97110 --diagnosis ICD10CM:M54.50 --state CA --lob medicare_part_b",
  "coverage check --input claims.csv --date 2026-06-15 --format csv",
  "coverage check --input - --format ndjson --fail-on procedure-not-covered < claims.ndjson",
];
