// One claim line of `coverage check`, from flags, a CSV row or an NDJSON object: its values
// checked before any request, each problem named by its column with the fix; and the filter
// request that answers every line of the same (procedure, state, LOB, payer, date).
import { expandStates } from "./sub-states.js";
import type { CodeSystem } from "../contract/index.js";
import { isRealDate, LOB_CATEGORIES, safeParseBounded, StateCode } from "../contract/index.js";
import { normaliseCode } from "../domain/codes.js";
import { stripControls } from "../domain/terminal-text.js";
import type { ClaimLine } from "../views/claim-check.js";
import {
  CODE_FORMATS,
  describeCodeFormat,
  guessCodeSystem,
  hasCodeFormat,
} from "./code-formats.js";
import { findCodeSystem, SYSTEMS_HELP } from "./parse-flags.js";
import { stateCodeForName } from "./state-names.js";

/** The columns of an input line (CSV header names, NDJSON keys). */
export const CLAIM_COLUMNS = [
  "procedure",
  "diagnosis",
  "state",
  "lob",
  "payer",
  "date",
  "claim",
  "units",
  "modifiers",
] as const;
export type ClaimColumn = (typeof CLAIM_COLUMNS)[number];

/** A line as read: each column's value as the file or the flags gave it. */
export type RawClaimLine = Partial<Record<ClaimColumn, unknown>>;

/** A bad value of a line: the column, what is wrong, how to fix it. */
export class LineProblem extends Error {
  constructor(
    readonly column: ClaimColumn | undefined,
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** A line ready to check: the values the API is asked with, and the line as echoed back. */
export interface CheckedLine extends ClaimLine {
  /** The state as given (before its sub-state jurisdictions), for the output. */
  state?: string;
  /** The claim the line belongs to (lines of one claim are checked together), if given. */
  claim?: string;
  /** Units of service (1 when not given). */
  units: number;
  /** Modifiers, upper case, two characters each. */
  modifiers: string[];
  input: ClaimInput;
}

/** A line as the output echoes it (`--json`'s `input`). */
export interface ClaimInput {
  procedure: string;
  diagnoses: string[];
  state: string | null;
  lob: string | null;
  payer: string | null;
  date: string;
  /** Only when the line gives them (a claim, units, modifiers). */
  claim?: string;
  units?: number;
  modifiers?: string[];
}

/** What the flags set for every line (and what a line's empty column falls back to). */
export interface LineDefaults {
  state?: string;
  lob?: string;
  payer?: string;
  /** The date of service when a line gives none (`--date`, else the engine's today). */
  date: string;
  /** `--exact-state`: a state is sent as given, without its sub-state jurisdictions. */
  exactState?: boolean;
}

function text(column: ClaimColumn, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" && typeof value !== "number")
    throw new LineProblem(
      column,
      `${column} is ${Array.isArray(value) ? "a list" : typeof value}, not text`,
      column === "diagnosis"
        ? 'Write the codes as text joined by ";" or as a list of strings.'
        : `Write ${column} as a string.`,
    );
  const trimmed = String(value).trim();
  return trimmed === "" ? undefined : trimmed;
}

/**
 * `SYSTEM:CODE`, or a bare code in the column's default system (a procedure is CPT when
 * CPT-shaped, HCPCS otherwise; a diagnosis ICD10CM).
 */
function parseCode(
  column: "procedure" | "diagnosis",
  raw: string,
  allowed: readonly CodeSystem[],
): { code_system: CodeSystem; code: string } {
  const colon = raw.indexOf(":");
  let system: CodeSystem;
  let code: string;
  if (colon < 0) {
    code = raw;
    system = column === "diagnosis" ? "ICD10CM" : hasCodeFormat("CPT", raw) ? "CPT" : "HCPCS";
  } else {
    code = raw.slice(colon + 1).trim();
    const named = findCodeSystem(raw.slice(0, colon));
    if (named === "PCS")
      throw new LineProblem(
        column,
        `'${raw}': ICD-10-PCS codes are not accepted`,
        column === "diagnosis"
          ? "Diagnoses are ICD-10-CM codes, e.g. ICD10CM:M54.50."
          : "Procedures are CPT or HCPCS codes, e.g. CPT:97110.",
      );
    if (!named)
      throw new LineProblem(
        column,
        `'${raw}': unknown code system '${raw.slice(0, colon)}'`,
        `Use one of ${SYSTEMS_HELP}.`,
      );
    system = named;
  }
  if (!allowed.includes(system))
    throw new LineProblem(
      column,
      `'${raw}' is ${system.startsWith("ICD") ? "an" : "a"} ${system} code; a ${column} is ${allowed.join(" or ")}`,
      column === "diagnosis"
        ? "Put ICD-10-CM codes in diagnosis, e.g. ICD10CM:M54.50."
        : "Put the CPT or HCPCS code billed in procedure, e.g. CPT:97110.",
    );
  if (code === "" || /\s/.test(code))
    throw new LineProblem(
      column,
      code === "" ? `'${raw}' names no code` : `'${raw}': a code cannot hold a space`,
      column === "diagnosis"
        ? 'Join several diagnoses with ";", e.g. M54.50;M25.561.'
        : "One procedure a line, e.g. CPT:97110.",
    );
  if (!hasCodeFormat(system, code)) {
    const other = guessCodeSystem(code);
    throw new LineProblem(
      column,
      other && allowed.includes(other)
        ? `${system}:${code}: ${code} is ${CODE_FORMATS[other].name}`
        : `${system}:${code}: '${code}' is not ${CODE_FORMATS[system].name}`,
      other && allowed.includes(other) ? `Write ${other}:${code}.` : describeCodeFormat(system),
    );
  }
  return { code_system: system, code: code.toUpperCase() };
}

function parseDiagnoses(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value)
    ? value.map((v) => text("diagnosis", v) ?? "")
    : (text("diagnosis", value) ?? "").split(/[;,]/);
  const codes = parts.map((p) => p.trim()).filter(Boolean);
  return [...new Set(codes.map((c) => parseCode("diagnosis", c, ["ICD10CM"]).code))];
}

function parseState(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const upper = raw.toUpperCase();
  if (safeParseBounded(StateCode, upper).success) return upper;
  const code = stateCodeForName(raw);
  throw new LineProblem(
    "state",
    code ? `'${raw}' is a state name` : `'${raw}' is not a state code`,
    code
      ? `Write its code: ${code}.`
      : "Use a code of the spec's list: two letters (CA), DC, AS, GU, PR, VI, CNMI, or a Medicare jurisdiction NF, SF, DN, QN, UN, EM, WM.",
  );
}

function parseLob(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const lob = raw.toLowerCase().replaceAll("-", "_");
  if ((LOB_CATEGORIES as readonly string[]).includes(lob)) return lob;
  throw new LineProblem(
    "lob",
    `'${raw}' is not a LOB category`,
    `Use one of ${LOB_CATEGORIES.join(", ")}.`,
  );
}

function parseDate(raw: string | undefined, fallback: string): string {
  if (raw === undefined) return fallback;
  if (isRealDate(raw)) return raw;
  throw new LineProblem(
    "date",
    /^\d{4}-\d{2}-\d{2}$/.test(raw)
      ? `'${raw}' is not a real date`
      : `'${raw}' is not a date in the form YYYY-MM-DD`,
    "Write the date of service as YYYY-MM-DD, e.g. 2026-06-15.",
  );
}

function parseUnits(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (/^\d+$/.test(raw) && Number.isSafeInteger(n)) return n;
  throw new LineProblem(
    "units",
    `'${raw}' is not a whole number of units`,
    "Write the units of service as a whole number, e.g. 2.",
  );
}

function parseModifiers(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value)
    ? value.map((v) => text("modifiers", v) ?? "")
    : (text("modifiers", value) ?? "").split(/[;,\s]+/);
  const mods = parts.map((p) => p.trim().toUpperCase()).filter(Boolean);
  const bad = mods.find((m) => !/^[A-Z0-9]{2}$/.test(m));
  if (bad !== undefined)
    throw new LineProblem(
      "modifiers",
      `'${bad}' is not a modifier of two characters`,
      'Write modifiers as two letters or digits, several joined by ";", e.g. 59;RT.',
    );
  return mods;
}

/**
 * A line's values checked and spelled as the API spells them; the flags fill the columns it
 * leaves empty. A bad value throws a LineProblem naming its column.
 */
export function parseClaimLine(raw: RawClaimLine, defaults: LineDefaults): CheckedLine {
  const procedureText = text("procedure", raw.procedure);
  if (procedureText === undefined)
    throw new LineProblem(
      "procedure",
      "no procedure",
      "Give the CPT or HCPCS code billed, e.g. CPT:97110.",
    );
  const procedure = parseCode("procedure", procedureText, ["CPT", "HCPCS"]);
  const diagnoses = parseDiagnoses(raw.diagnosis);
  const state = parseState(text("state", raw.state) ?? defaults.state);
  const lob = parseLob(text("lob", raw.lob) ?? defaults.lob);
  const payer = text("payer", raw.payer) ?? defaults.payer;
  const date = parseDate(text("date", raw.date), defaults.date);
  const claim = text("claim", raw.claim);
  const units = parseUnits(text("units", raw.units));
  const modifiers = parseModifiers(raw.modifiers);
  const states =
    state === undefined ? undefined : defaults.exactState ? [state] : expandStates([state]);
  return {
    procedure,
    diagnoses,
    state,
    states,
    lob,
    payer,
    date,
    ...(claim !== undefined && { claim }),
    units: units ?? 1,
    modifiers,
    input: {
      procedure: `${procedure.code_system}:${procedure.code}`,
      diagnoses: diagnoses.map((d) => `ICD10CM:${d}`),
      state: state ?? null,
      lob: lob ?? null,
      payer: payer ?? null,
      date,
      ...(claim !== undefined && { claim }),
      ...(units !== undefined && { units }),
      ...(modifiers.length > 0 && { modifiers }),
    },
  };
}

/** What lines share one filter request: (procedure, states, LOB, payer, date). */
export function combinationKey(line: Omit<ClaimLine, "diagnoses">): string {
  const { code_system, code } = line.procedure;
  return JSON.stringify([
    code_system,
    normaliseCode(code_system, code),
    line.states ?? null,
    line.lob ?? null,
    line.payer?.toUpperCase() ?? null,
    line.date,
  ]);
}

/** Policies a filter page holds (the API's most). */
export const CHECK_PAGE_SIZE = 100;

/**
 * The filter body of a combination: the procedure, the scope, the date as the effective
 * window, applicability and code groups, in policy id order (stable across pages).
 */
export function buildCheckBody(
  line: Omit<ClaimLine, "diagnoses">,
  offset = 0,
): Record<string, unknown> {
  const policies: Record<string, unknown> = {
    code_refs: {
      refs: [{ code_system: line.procedure.code_system, codes: [line.procedure.code] }],
    },
  };
  if (line.states?.length) policies.states = line.states;
  if (line.lob !== undefined) policies.lobs = [line.lob];
  if (line.payer !== undefined) policies.payer_ids = [line.payer];
  policies.effective_date = { start: line.date, end: line.date };
  return {
    policies,
    sort: "policy_id_asc",
    limit: CHECK_PAGE_SIZE,
    offset,
    include_applicability: true,
    include_code_groups: true,
  };
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

/** A bad line as stderr names it: source, line, column, what is wrong and the fix. */
export function describeProblem(
  { line, problem }: { line: number; problem: LineProblem },
  source: string,
): string {
  const where = `${source}, line ${line}${problem.column ? `, column ${problem.column}` : ""}`;
  // A value quoted back is cut: a 10,000-digit "code" was 20 KB of stderr for one line.
  const said = `${problem.message}. ${problem.fix}`.replace(
    /\S{81,}/g,
    (long) => `${long.slice(0, 60)}… (${long.length.toLocaleString("en-US")} characters)`,
  );
  return stripControls(`${where}: ${said}`);
}
