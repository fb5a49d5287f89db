// Medicare's claim edits, fees and prior-authorization lists as the code dossier and the claim
// check read them (cli.md, "Medicare's edits, fees and prior authorization"): the records a
// snapshot holds, the source they are read through, and what CMS's indicators mean in words.
// Codes and CMS's numbers only: no CPT descriptor is ever part of a record.
import { statewideOf } from "./sub-states.js";

/** NCCI programs: CMS publishes Medicare and Medicaid variants of the PTP and MUE tables. */
export type NcciProgram = "medicare" | "medicaid";

/** The file a rule came from: what answers name ("PTP practitioner v322r0 f1"). */
export interface RuleRelease {
  kind: "ptp" | "mue" | "aoc" | "pfs" | "gpci" | "dmepos" | "pa";
  /** practitioner, hospital, dme... (PTP and MUE), else "". */
  setting: string;
  program: NcciProgram;
  /** PTP `v322r0`, MUE and DMEPOS the effective date, RVU `26C`, PA the list's file. */
  release: string;
  /** The part of a file CMS splits by code range (PTP f1..f4), else 0. */
  part: number;
  /** The file as given to `data import`. */
  file: string;
  rows: number;
  /** Rows whose deletion date is before their effective date (counted, kept as CMS wrote them). */
  odd_rows: number;
  /** The first day the release applies to, when CMS says (MUE, RVU, DMEPOS), else null. */
  effective: string | null;
}

/** One NCCI procedure-to-procedure edit (a row of a ccipra/ccioph file). */
export interface PtpEdit {
  setting: string;
  program: NcciProgram;
  column1: string;
  column2: string;
  /** `*` in CMS's "in existence prior to 1996" column. */
  pre_1996: boolean;
  effective: string;
  /** The last day the edit applies; null when CMS wrote `*` (no deletion). */
  deletion: string | null;
  /** 0 = no modifier bypasses it, 1 = a bypass modifier may, 9 = not applicable. */
  modifier_indicator: 0 | 1 | 9;
  rationale: string;
  release: string;
}

/** One NCCI add-on code edit (a row of CMS's AOC file): an add-on code and one primary code. */
export interface AddOnEdit {
  program: NcciProgram;
  add_on: string;
  /** The primary code; null where CMS wrote `CCCCC` (the contractor defines the primaries). */
  primary: string | null;
  /** 1: CMS lists every primary; 2: the contractor defines them; 3: CMS lists some of them. */
  type: 1 | 2 | 3;
  /** The first day the pairing applies (AOC_Edit_EffDT). */
  effective: string;
  /** The last day it applies (AOC_Edit_DelDT), or null. */
  deletion: string | null;
  /** The last day of the add-on code and of the primary code, when CMS deleted them. */
  add_on_deletion: string | null;
  primary_deletion: string | null;
  /** CMS's special instruction notes (no descriptor: codes and CMS's words). */
  notes: string;
  release: string;
}

/** One medically unlikely edit (a row of an MUE table). */
export interface MueEntry {
  setting: string;
  program: NcciProgram;
  code: string;
  value: number;
  /** MUE adjudication indicator; null in the Medicaid tables, which have none. */
  mai: 1 | 2 | 3 | null;
  rationale: string;
  release: string;
  effective: string | null;
}

/** One row of the PFS relative value file (PPRRVU), codes and numbers only. */
export interface PfsEntry {
  /** "" for the file everyone is paid by (nonQPP), "qpp" for APM participants' (QPP). */
  setting: string;
  code: string;
  modifier: string;
  status: string;
  global_days: string;
  pctc: string;
  work_rvu: number;
  non_facility_pe_rvu: number;
  non_facility_na: boolean;
  facility_pe_rvu: number;
  facility_na: boolean;
  mp_rvu: number;
  non_facility_total: number;
  facility_total: number;
  conversion_factor: number;
  release: string;
  effective: string | null;
}

/** One Medicare payment locality's geographic practice cost indices. */
export interface GpciEntry {
  mac: string;
  state: string;
  locality: string;
  name: string;
  work: number;
  pe: number;
  mp: number;
  release: string;
}

/** A DMEPOS fee for one state (non-rural and rural), codes and numbers only. */
export interface DmeposFee {
  code: string;
  modifier: string;
  modifier2: string;
  state: string;
  non_rural: number | null;
  rural: number | null;
  jurisdiction: string;
  category: string;
  release: string;
  effective: string | null;
}

/** A row of a prior-authorization list. */
export interface PriorAuthEntry {
  code: string;
  /** The list: `DMEPOS`, `OPD` (42 CFR 419.83), `WISeR`, or a user's own. */
  program: string;
  /** What the list calls the group the code is in (a service category, a policy group). */
  category: string;
  /** Two-letter states; empty = nationwide. */
  states: string[];
  from: string;
  /** The last day, or null when open. */
  to: string | null;
  source: string;
  release: string;
}

/** What the dossier and the claim check read the rules through (a snapshot implements it). */
export interface MedicareRuleSource {
  releases(): RuleRelease[];
  /** Every PTP edit in which the code is column 1 or column 2 (any date, any setting). */
  ptpEditsOf(code: string): PtpEdit[];
  /** PTP edits between codes of the set (both columns in it). */
  ptpEditsAmong(codes: readonly string[]): PtpEdit[];
  mue(code: string): MueEntry[];
  /** Every add-on code edit in which the code is the add-on or the primary (any date). */
  addOnEditsOf(code: string): AddOnEdit[];
  /** The add-on code edits of these add-on codes (a claim's codes). */
  addOnEditsFor(codes: readonly string[]): AddOnEdit[];
  pfs(code: string): PfsEntry[];
  gpci(): GpciEntry[];
  dmepos(code: string): DmeposFee[];
  priorAuth(code: string): PriorAuthEntry[];
}

/** The modifiers that bypass a PTP edit whose modifier indicator is 1 (cli.md). */
export const BYPASS_MODIFIERS: ReadonlySet<string> = new Set([
  "59",
  "XE",
  "XS",
  "XP",
  "XU",
  // Anatomic modifiers (NCCI Policy Manual, chapter 1, section E).
  "E1",
  "E2",
  "E3",
  "E4",
  "FA",
  "F1",
  "F2",
  "F3",
  "F4",
  "F5",
  "F6",
  "F7",
  "F8",
  "F9",
  "TA",
  "T1",
  "T2",
  "T3",
  "T4",
  "T5",
  "T6",
  "T7",
  "T8",
  "T9",
  "LT",
  "RT",
  "LC",
  "LD",
  "LM",
  "RC",
  "RI",
]);

/** The meaning of a PTP modifier indicator, in words. */
export function describeModifierIndicator(indicator: number): string {
  if (indicator === 0) return "not allowed: no modifier lets both codes be paid";
  if (indicator === 1)
    return "allowed: 59, XE, XS, XP, XU or an anatomic modifier lets both be paid when the services were distinct";
  return "not applicable: the edit does not apply (deleted the day it took effect)";
}

/** The meaning of an MUE adjudication indicator, in words. */
export function describeMai(mai: number | null): string {
  if (mai === 1) return "line edit: the units of each claim line are compared with the MUE";
  if (mai === 2)
    return "date of service edit, policy: the units of all lines of the day are summed; the MUE is an absolute limit";
  if (mai === 3)
    return "date of service edit, clinical: the units of all lines of the day are summed; more may be paid on appeal with records";
  return "no adjudication indicator (Medicaid tables have none): compared per line";
}

/** The meaning of an NCCI add-on code edit type, in words. */
export function describeAocType(type: number): string {
  if (type === 1) return "paid only with one of the primary codes CMS lists";
  if (type === 2) return "the Medicare contractor defines the primary codes; CMS lists none";
  return "CMS lists some primary codes; the contractor may accept others";
}

/**
 * Whether an add-on code edit applies on a date of service: the pairing from its effective
 * through its deletion date, and neither code deleted before the date (deletion dates are the
 * last day, as the PTP edits' are).
 */
export function addOnEditApplies(edit: AddOnEdit, date: string): boolean {
  const through = (last: string | null) => last === null || date <= last;
  return (
    edit.effective <= date &&
    through(edit.deletion) &&
    through(edit.add_on_deletion) &&
    through(edit.primary_deletion)
  );
}

/** Whether a PTP edit applies on a date of service (effective through deletion; never for 9). */
export function ptpEditApplies(edit: PtpEdit, date: string): boolean {
  if (edit.modifier_indicator === 9) return false;
  return edit.effective <= date && (edit.deletion === null || date <= edit.deletion);
}

/** Whether a prior-authorization row applies in a state on a date (no states = nationwide). */
export function priorAuthApplies(
  entry: PriorAuthEntry,
  state: string | undefined,
  date: string,
): boolean {
  if (date < entry.from || (entry.to !== null && date > entry.to)) return false;
  if (entry.states.length === 0) return true;
  // A Medicare sub-state jurisdiction (NF, SF, DN, ...) is in its state (CA, NY, MO).
  const whole = state === undefined ? undefined : (statewideOf(state) ?? state);
  return whole !== undefined && entry.states.includes(whole);
}

/**
 * An amount in dollars to the cent from RVUs (2 decimals), GPCIs (3 decimals, 1 for national)
 * and a conversion factor (4 decimals), in whole numbers so that no float error moves a cent:
 * (work x GPCIw + PE x GPCIpe + MP x GPCImp) x CF, rounded half up.
 */
export function feeAmount(
  rvus: { work: number; pe: number; mp: number },
  gpci: { work: number; pe: number; mp: number },
  conversionFactor: number,
): number {
  const r = (n: number, scale: number) => Math.round(n * scale);
  // RVU x 100 times GPCI x 1000: units of 1e-5 RVU.
  const weighted =
    r(rvus.work, 100) * r(gpci.work, 1000) +
    r(rvus.pe, 100) * r(gpci.pe, 1000) +
    r(rvus.mp, 100) * r(gpci.mp, 1000);
  // Times CF x 10000: units of 1e-9 dollars; cents are 1e7 of them.
  const product = BigInt(weighted) * BigInt(r(conversionFactor, 10_000));
  const cents = (product + 5_000_000n) / 10_000_000n;
  return Number(cents) / 100;
}
