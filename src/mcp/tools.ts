import * as z from "zod";
import {
  IsoDate,
  LOB_CATEGORIES,
  MatchMode,
  RELATIONSHIPS,
  Relationship,
  STATE_CODES,
} from "../contract/index.js";
import { describeLobTypo } from "../requests/lob-typos.js";
import { describeStateTypo } from "../requests/state-typos.js";
import { INPUT_LIMITS as MAX, countCodes } from "./limits.js";
import { OUTPUT_SCHEMAS } from "./output-schemas.js";

/** One MCP tool: its schemas and words, and the CLI command whose `--json` answers it. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  output: z.ZodType;
  /** A problem with the input that its schema cannot say (fields that go together). */
  check?: (input: ToolInput) => string | undefined;
  /** The command line (after the global options, `--json` added) that answers the input. */
  argv: (input: ToolInput) => string[];
  /** What the command reads on its stdin (check_claim's lines as NDJSON), if anything. */
  stdin?: (input: ToolInput) => string | undefined;
}

export type ToolInput = Record<string, unknown>;

// Pieces of the contract the CLI validates with, described for an assistant.
/** A state code; a name or a typo gets the closest codes ("did you mean CA?"), not all 63. */
const StateCode = () =>
  z.enum(STATE_CODES, {
    error: (issue) =>
      describeStateTypo(typeof issue.input === "string" ? issue.input : String(issue.input)),
  });
const Modifiers = () => z.array(z.string().regex(/^[A-Za-z0-9]{2}$/));
const Code = () =>
  z
    .string()
    .min(1)
    .max(MAX.codeChars)
    .describe(
      "one code as SYSTEM:CODE, SYSTEM one of CPT, HCPCS, ICD10CM, CPT_MODIFIER, HCPCS_MODIFIER (e.g. CPT:97110, HCPCS:E0601, ICD10CM:M54.50)",
    );
const States = () =>
  z
    .array(StateCode())
    .max(STATE_CODES.length)
    .describe(
      "two-letter state codes, upper case; CA, NY and MO bring Medicare's sub-state jurisdictions (NF, SF; DN, QN, UN; EM, WM), and each of those brings its state (a statewide policy applies in its parts); nationwide scopes always count",
    );
/** `--exact-state`: the states as given, without Medicare's sub-state jurisdictions or their state. */
const ExactState = () =>
  z
    .boolean()
    .optional()
    .describe(
      "true: the states exactly as given (CA without NF and SF; NF without CA); default false",
    );
/** A LOB category; a typo gets the closest ("did you mean medicaid?"), as the CLI's. */
const LobCategory = () =>
  z.enum(LOB_CATEGORIES, { error: (issue) => describeLobTypo(String(issue.input)) });
const Lobs = () =>
  z.array(LobCategory()).max(LOB_CATEGORIES.length).describe("line-of-business categories");
const Payers = () =>
  z
    .array(z.string().min(1).max(MAX.idChars))
    .max(MAX.payers)
    .describe("payer ids as list_payers gives them (e.g. AETNA, CMS); a typo names the closest");
// At most MAX.codes codes in all, counting each of "CPT:97110,97112" (checked before any work).
const Codes = () =>
  z
    .array(Code())
    .max(MAX.codes)
    .refine((codes) => countCodes(codes) <= MAX.codes, {
      message: `at most ${MAX.codes} codes in all (a comma inside a string counts as another)`,
    });
// Whole units, 0 to MAX.units: one message for a fraction, a negative or an absurd number.
const UNITS_RANGE = `a whole number from 0 to ${MAX.units.toLocaleString("en-US")}`;
const Units = () =>
  z
    .int({ error: `units must be ${UNITS_RANGE}` })
    .min(0, { error: `units must be ${UNITS_RANGE}` })
    .max(MAX.units, { error: `units must be ${UNITS_RANGE}` });
const Day = (what: string) => IsoDate.describe(`${what}, YYYY-MM-DD`);
const Limit = () =>
  z
    .int()
    .min(1, "limit is at least 1")
    .max(100, "limit is at most 100: ask for the next page with offset")
    .describe("items on this page, 1-100 (default 20)");
const Offset = () =>
  z.int().min(0).max(MAX.offset).describe("items to skip (default 0); the answer says has_more");

/** `--flag=value` for each value given (one flag per value), nothing when absent. */
function flag(name: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v) => flag(name, v));
  if (typeof value === "boolean") return value ? [`--${name}`] : [];
  return [`--${name}=${String(value)}`];
}

/** Positional arguments after `--` when one could be read as an option. */
function positional(...args: string[]): string[] {
  return args.some((a) => a.startsWith("-")) ? ["--", ...args] : args;
}

const MEDICARE =
  "Medicare LCDs and articles (ids cms-lcd/..., cms-article/...) apply only in their contractors' states.";

const str = (v: unknown) => v as string;

// lookup_code and coverage_matrix ask the same question of one code: where, for whom, when.
const codeOnADay = () => ({
  code: Code(),
  states: States().optional(),
  exact_state: ExactState(),
  lobs: Lobs().optional(),
  payers: Payers().optional(),
  effective_on: Day("the day to look at (default: today)").optional(),
});
const scopeFlags = (i: Record<string, unknown>) => [
  ...flag("state", i.states),
  ...flag("exact-state", i.exact_state),
  ...flag("lob", i.lobs),
  ...flag("payer", i.payers),
  ...flag("effective-on", i.effective_on),
];

/** The tools, in the order they are listed. */
export function defineTools(): ToolSpec[] {
  return [
    {
      name: "search_policies",
      title: "Search coverage policies",
      description:
        "Find payer and Medicare coverage policies by words, codes, payer, line of business, state and date. " +
        "Use it to answer 'which policies cover / exclude / mention this procedure or diagnosis here'. " +
        "Each policy comes with its payers and scopes (payer: LOB · state) and, when codes are given, " +
        "its code groups and a verdict (covers, does not cover, mentions, mixed). Words rank, never filter. " +
        "Pages of at most 100; ask the next with offset. " +
        MEDICARE +
        " Same as `coverage search ... --applicability [--code-groups] --json`.",
      input: {
        query: z
          .string()
          .max(MAX.queryChars)
          .optional()
          .describe("free-text words ranking titles and summaries"),
        codes: Codes()
          .optional()
          .describe(
            "codes as SYSTEM:CODE; several codes of one system in one string: CPT:97110,97112",
          ),
        relationship: z
          .array(Relationship)
          .max(RELATIONSHIPS.length)
          .optional()
          .describe("only these relationships of the codes"),
        match: MatchMode.optional().describe("across several codes: any (default) or all"),
        payers: Payers().optional(),
        lobs: Lobs().optional(),
        states: States().optional(),
        exact_state: ExactState(),
        effective_on: Day("in effect on this day").optional(),
        retired: z
          .boolean()
          .optional()
          .describe("true: retired versions only; false: not retired; absent: both"),
        limit: Limit().optional(),
        offset: Offset().optional(),
      },
      output: OUTPUT_SCHEMAS.policyPage,
      argv: (i) => {
        const codes = i.codes as string[] | undefined;
        return [
          "search",
          ...flag("query", i.query),
          ...flag("code", codes),
          ...flag("relationship", (i.relationship as string[] | undefined)?.join(",")),
          ...flag("match", i.match),
          ...flag("payer", i.payers),
          ...flag("lob", i.lobs),
          ...flag("state", i.states),
          ...flag("exact-state", i.exact_state),
          ...flag("effective-on", i.effective_on),
          ...(i.retired === undefined ? [] : [i.retired ? "--retired" : "--no-retired"]),
          ...flag("limit", i.limit),
          ...flag("offset", i.offset),
          "--applicability",
          ...(codes?.length ? ["--code-groups"] : []),
        ];
      },
    },
    {
      name: "get_policy",
      title: "Get one policy",
      description:
        "One policy version in full: title, number, dates, summary, applicability (payer, LOB, state), " +
        "code groups (covered, not covered, referenced codes) and the criteria text. " +
        "Give the id search_policies lists (aetna/cpb/0325/2025-06-01) or a key without the date " +
        "(cms-lcd/L33718: the version in effect today, else the latest). Criteria over 32,000 characters are cut, with a note. " +
        MEDICARE +
        " Same as `coverage policy ID --json`.",
      input: {
        policy_id: z
          .string()
          .min(1)
          .max(MAX.idChars)
          .describe("a policy id (payer/number/YYYY-MM-DD) or its key without the date"),
      },
      output: OUTPUT_SCHEMAS.policyDetail,
      argv: (i) => ["policy", ...positional(str(i.policy_id))],
    },
    {
      name: "lookup_code",
      title: "Look up a code",
      description:
        "What a code is (its catalogue description) and which policies cover, exclude or mention it on a day, " +
        "grouped by relationship, each with its payers and scope. Use it for 'is CPT 97110 covered, and by whom'. " +
        "On a snapshot holding Medicare's edits and fees, `medicare` adds for the day and the first state: the MUE per " +
        "setting (value, adjudication indicator and its meaning), the NCCI PTP edits in force (count; each with edits), " +
        "the fee schedule's status, global days, PC/TC and national amounts (a locality's with locality), the DMEPOS " +
        "fee for the state and prior authorization, each naming its release. " +
        MEDICARE +
        " Same as `coverage code SYSTEM:CODE --json`.",
      input: {
        ...codeOnADay(),
        edits: z.boolean().optional().describe("list each PTP edit in force with its partner"),
        locality: z
          .string()
          .regex(/^([A-Za-z]{2}-)?\d{1,2}$/)
          .optional()
          .describe("a Medicare locality (18, or TX-18) for the fee schedule's amounts there"),
      },
      output: OUTPUT_SCHEMAS.codeReport,
      argv: (i) => [
        "code",
        ...scopeFlags(i),
        ...flag("edits", i.edits),
        ...flag("locality", i.locality),
        ...positional(str(i.code)),
      ],
    },
    {
      name: "coverage_matrix",
      title: "Coverage matrix of a code",
      description:
        "One code across payers and lines of business (rows) and states (columns): each cell covers, " +
        "does not cover, mentions, mixed or none, with the policy ids behind it, and where the verdict varies. " +
        "Use it to compare payers or states for one code. " +
        MEDICARE +
        " Same as `coverage matrix --code SYSTEM:CODE --json`.",
      input: codeOnADay(),
      output: OUTPUT_SCHEMAS.matrix,
      argv: (i) => ["matrix", ...flag("code", i.code), ...scopeFlags(i)],
    },
    {
      name: "policy_versions",
      title: "Versions of a policy",
      description:
        "Every version of one policy: dates, status, and what changed from the previous one " +
        "(codes added, removed or changed, applicability gained or lost, criteria). " +
        "Give the key without the date (cms-lcd/L33718); a full id is read as its key. " +
        "Same as `coverage versions KEY --json`.",
      input: {
        policy_key: z
          .string()
          .min(1)
          .max(MAX.idChars)
          .describe("the policy id without its date, e.g. cms-lcd/L33718 or aetna/cpb/0325"),
      },
      output: OUTPUT_SCHEMAS.versions,
      argv: (i) => ["versions", ...positional(str(i.policy_key))],
    },
    {
      name: "diff_policy_versions",
      title: "Diff two policy versions",
      description:
        "What changed between two versions of a policy: codes added, removed and changed relationship; " +
        "applicability gained and lost; title, dates, summary; criteria as a unified diff. " +
        "Give old_id and new_id (full ids), or policy_key alone for its two latest versions. " +
        "Same as `coverage diff OLD_ID NEW_ID --json` (or `coverage diff KEY --json`).",
      input: {
        old_id: z.string().min(1).max(MAX.idChars).optional().describe("the older version's id"),
        new_id: z.string().min(1).max(MAX.idChars).optional().describe("the newer version's id"),
        policy_key: z
          .string()
          .min(1)
          .max(MAX.idChars)
          .optional()
          .describe(
            "instead of two ids: a key (its two latest versions) or one id (it and the one before)",
          ),
      },
      output: OUTPUT_SCHEMAS.diff,
      check: (i) =>
        i.policy_key !== undefined
          ? i.old_id !== undefined || i.new_id !== undefined
            ? "error: give policy_key alone, or old_id and new_id (not both ways)"
            : undefined
          : i.old_id === undefined || i.new_id === undefined
            ? 'error: diff_policy_versions needs old_id and new_id, or policy_key\nExample: {"policy_key": "cms-lcd/L33718"} for its two latest versions.'
            : undefined,
      argv: (i) =>
        i.policy_key !== undefined
          ? ["diff", ...positional(str(i.policy_key))]
          : ["diff", ...positional(str(i.old_id), str(i.new_id))],
    },
    {
      name: "recent_updates",
      title: "Recent policy updates",
      description:
        "New and updated policy versions that took effect in the last N days (default 30), newest first, " +
        "one item per version and payer; narrowed by payer, LOB or code; with changes: true each item says " +
        "what changed from its predecessor. Use it for 'what changed lately'. " +
        MEDICARE +
        " Same as `coverage updates --json`.",
      input: {
        days: z.int().min(1).max(365).optional().describe("look back N days, 1-365 (default 30)"),
        payers: Payers().optional(),
        lobs: Lobs().optional(),
        codes: Codes().optional().describe("only versions listing one of these codes"),
        changes: z
          .boolean()
          .optional()
          .describe("classify each item against its predecessor (more requests)"),
        limit: Limit().optional(),
        offset: Offset().optional(),
      },
      output: OUTPUT_SCHEMAS.updatesPage,
      argv: (i) => [
        "updates",
        ...flag("days", i.days),
        ...flag("payer", i.payers),
        ...flag("lob", i.lobs),
        ...flag("code", i.codes),
        ...flag("changes", i.changes),
        ...flag("limit", i.limit),
        ...flag("offset", i.offset),
      ],
    },
    {
      name: "check_claim",
      title: "Check a claim line",
      description:
        "Will this procedure, billed with these diagnoses, for a patient in this state, line of business and payer, " +
        "on this date of service, meet the coverage policies that apply? One result per payer x LOB with a verdict " +
        "(procedure not covered, diagnosis not covered, supported, diagnosis not listed, no diagnosis limits, " +
        "mentioned only, not addressed) and the policies behind it with their own verdicts and the category where the " +
        "diagnosis is listed. On a snapshot holding Medicare's edits: units over the MUE and prior authorization " +
        "required rows too, each naming its edit or list and release. A policy is read as a whole (an article listing diagnoses for some procedures is read as " +
        "listing them for all). Procedure as CPT:97110 or HCPCS:E0601; diagnoses as ICD10CM:M54.50 (dots optional). " +
        MEDICARE +
        " Same as `coverage check --procedure ... --diagnosis ... --json`.",
      input: {
        procedure: Code().describe("the procedure billed, SYSTEM:CODE (CPT:97110, HCPCS:E0601)"),
        diagnoses: z
          .array(z.string().min(1).max(MAX.codeChars))
          .max(MAX.codes)
          .optional()
          .describe("ICD-10-CM diagnoses of the line, e.g. ICD10CM:M54.50"),
        state: StateCode()
          .optional()
          .describe(
            "the patient's state, upper case; CA, NY and MO bring Medicare's sub-state jurisdictions, and a sub-state code (NF) brings its state (CA)",
          ),
        exact_state: ExactState(),
        lob: LobCategory().optional().describe("the line-of-business category"),
        payer: z.string().min(1).max(MAX.idChars).optional().describe("the payer id (list_payers)"),
        date: Day("the date of service (default: today)").optional(),
        units: Units()
          .optional()
          .describe(`units of service, ${UNITS_RANGE} (default 1); over the MUE is a row`),
        modifiers: Modifiers().optional().describe("the line's modifiers (59, XS, RT)"),
        other_lines: z
          .array(
            z.object({
              procedure: Code().describe("another procedure of the same claim"),
              units: Units().optional(),
              modifiers: Modifiers().optional(),
            }),
          )
          .max(100)
          .optional()
          .describe(
            "the claim's other lines (same patient, state and date): NCCI PTP bundling is checked between the lines",
          ),
      },
      output: OUTPUT_SCHEMAS.claimCheck,
      argv: (i) => [
        "check",
        ...(i.other_lines === undefined
          ? [
              ...flag("procedure", i.procedure),
              ...flag("diagnosis", i.diagnoses),
              ...flag("units", i.units === undefined ? undefined : String(i.units)),
              ...flag("modifiers", i.modifiers),
            ]
          : ["--input", "-"]),
        ...flag("state", i.state),
        ...flag("exact-state", i.exact_state),
        ...flag("lob", i.lob),
        ...flag("payer", i.payer),
        ...flag("date", i.date),
      ],
      // A claim of several lines goes to `check --input -` as NDJSON: the lines of one claim.
      stdin: (i) => {
        const others = i.other_lines as Array<Record<string, unknown>> | undefined;
        if (others === undefined) return undefined;
        const first = {
          procedure: i.procedure,
          diagnosis: i.diagnoses,
          units: i.units,
          modifiers: i.modifiers,
        };
        return [first, ...others]
          .map((l) =>
            JSON.stringify({
              claim: "1",
              ...l,
              units: l.units === undefined ? undefined : String(l.units),
            }),
          )
          .join("\n");
      },
    },
    {
      name: "list_payers",
      title: "List payers",
      description:
        "The payers that have at least one policy, past or present, with their ids (what the payers " +
        "input of the other tools takes); narrowed by line-of-business category. Same as `coverage payers --json`.",
      input: { lobs: Lobs().optional(), limit: Limit().optional(), offset: Offset().optional() },
      output: OUTPUT_SCHEMAS.payerPage,
      argv: (i) => [
        "payers",
        ...flag("lob", i.lobs),
        ...flag("limit", i.limit),
        ...flag("offset", i.offset),
      ],
    },
    {
      name: "list_lobs",
      title: "List lines of business",
      description:
        "Lines of business: a payer's product in a category (commercial, medicaid, medicare_advantage...), " +
        "in one state or nationwide; narrowed by category, payer and state (exact state: nationwide ones are " +
        "left out when states are given). Same as `coverage lobs --json`.",
      input: {
        lobs: Lobs().optional(),
        payers: Payers().optional(),
        states: z
          .array(StateCode())
          .max(STATE_CODES.length)
          .optional()
          .describe(
            "state or jurisdiction codes, upper case, matched to a LOB's own state; CA brings NF and SF, NF brings CA",
          ),
        exact_state: ExactState(),
        limit: Limit().optional(),
        offset: Offset().optional(),
      },
      output: OUTPUT_SCHEMAS.lobPage,
      argv: (i) => [
        "lobs",
        ...flag("lob", i.lobs),
        ...flag("payer", i.payers),
        ...flag("state", i.states),
        ...flag("exact-state", i.exact_state),
        ...flag("limit", i.limit),
        ...flag("offset", i.offset),
      ],
    },
  ];
}
