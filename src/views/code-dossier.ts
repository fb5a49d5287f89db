import { UsageError } from "../errors.js";
import { statewideOf } from "../domain/sub-states.js";
import {
  addOnEditApplies,
  describeAocType,
  describeMai,
  describeModifierIndicator,
  feeAmount,
  priorAuthApplies,
  ptpEditApplies,
  type GpciEntry,
  type MedicareRuleSource,
  type PriorAuthEntry,
  type RuleRelease,
  type PtpEdit,
} from "../domain/medicare-edits.js";

/** One PTP edit as the dossier lists it: the other code and the edit's terms. */
export interface DossierEdit {
  partner: string;
  /** The asked code's place in the pair: column 1 (the code paid) or column 2 (the one bundled). */
  code_is: "column 1" | "column 2";
  setting: string;
  program: string;
  modifier_indicator: 0 | 1 | 9;
  modifier_meaning: string;
  effective: string;
  deletion: string | null;
  rationale: string;
  release: string;
}

/** The fee schedule's line of a code (and of its 26 / TC rows): indicators and amounts. */
export interface DossierFee {
  modifier: string;
  status: string;
  global_days: string;
  pctc: string;
  rvus: { work: number; non_facility_pe: number; facility_pe: number; mp: number };
  conversion_factor: number;
  /** RVUs x conversion factor, to the cent; null where CMS marks the setting NA. */
  national: { non_facility: number | null; facility: number | null };
  locality?: {
    state: string;
    locality: string;
    name: string;
    non_facility: number | null;
    facility: number | null;
    gpci_release: string;
  };
  release: string;
}

/** `coverage code`'s Medicare section (`medicare` in its --json). */
export interface CodeDossier {
  code: string;
  date: string;
  state: string | null;
  mue: Array<{
    setting: string;
    program: string;
    value: number;
    mai: number | null;
    mai_meaning: string;
    rationale: string;
    release: string;
  }>;
  ptp: { count: number; as_column_1: number; as_column_2: number; edits?: DossierEdit[] };
  /** NCCI add-on code edits in force on the date (null when the snapshot holds none). */
  add_on: {
    /** The code as an add-on: its type and the primaries CMS lists (none for type 2). */
    as_add_on: Array<{
      type: number;
      type_meaning: string;
      primaries: string[];
      program: string;
      release: string;
    }>;
    /** The add-on codes of which the code is a listed primary. */
    as_primary: Array<{ add_on: string; type: number; program: string; release: string }>;
  } | null;
  fees: DossierFee[];
  dmepos: Array<{
    modifier: string;
    modifier2: string;
    state: string;
    non_rural: number | null;
    rural: number | null;
    release: string;
  }>;
  prior_authorization: Array<Omit<PriorAuthEntry, "code">>;
  /** What the answer cannot say (a release after the date, no state for DMEPOS fees). */
  notes: string[];
  /** Every file the snapshot's rules come from (a user may load some PTP parts only). */
  releases: RuleRelease[];
}

export interface DossierRequest {
  code: string;
  date: string;
  state?: string | undefined;
  edits?: boolean | undefined;
  locality?: string | undefined;
}

/** The locality `--locality` names: its number, within `--state` when given; exit 2 when unclear. */
export function findLocality(
  all: GpciEntry[],
  locality: string,
  state: string | undefined,
): GpciEntry {
  const number = locality.replace(/^[A-Z]{2}[-:]/i, "");
  const inState = /^[A-Z]{2}[-:]/i.test(locality) ? locality.slice(0, 2).toUpperCase() : state;
  const hits = all.filter(
    (g) => g.locality === number.padStart(2, "0") && (inState === undefined || g.state === inState),
  );
  if (hits.length === 1) return hits[0] as GpciEntry;
  const list = (
    hits.length ? hits : all.filter((g) => inState === undefined || g.state === inState)
  )
    .slice(0, 12)
    .map((g) => `${g.state}-${g.locality} ${g.name}`)
    .join(", ");
  throw new UsageError(
    hits.length
      ? `--locality ${locality}: ${hits.length} localities have that number: ${list}`
      : `--locality ${locality}: no such Medicare locality${inState ? ` in ${inState}` : ""} in the snapshot's GPCI file${list ? ` (there: ${list})` : ""}`,
    hits.length
      ? "Give --state too, or the locality as STATE-NN (TX-18)."
      : "Give a locality number of the GPCI file (`data import fees` imports it).",
  );
}

function editOf(e: PtpEdit, code: string): DossierEdit {
  const asCol1 = e.column1 === code;
  return {
    partner: asCol1 ? e.column2 : e.column1,
    code_is: asCol1 ? "column 1" : "column 2",
    setting: e.setting,
    program: e.program,
    modifier_indicator: e.modifier_indicator,
    modifier_meaning: describeModifierIndicator(e.modifier_indicator),
    effective: e.effective,
    deletion: e.deletion,
    rationale: e.rationale,
    release: e.release,
  };
}

/** The add-on code edits of a code in force on a day, grouped by file and type. */
function addOnsOf(source: MedicareRuleSource, code: string, date: string): CodeDossier["add_on"] {
  if (!source.releases().some((r) => r.kind === "aoc")) return null;
  const active = source.addOnEditsOf(code).filter((e) => addOnEditApplies(e, date));
  const groups = new Map<string, NonNullable<CodeDossier["add_on"]>["as_add_on"][number]>();
  for (const e of active.filter((e) => e.add_on === code)) {
    const key = `${e.program} ${e.release} ${e.type}`;
    const group = groups.get(key) ?? {
      type: e.type,
      type_meaning: describeAocType(e.type),
      primaries: [],
      program: e.program,
      release: e.release,
    };
    if (e.primary !== null) group.primaries.push(e.primary);
    groups.set(key, group);
  }
  for (const g of groups.values()) g.primaries = [...new Set(g.primaries)].sort();
  const as_primary = active
    .filter((e) => e.primary === code && e.add_on !== code)
    .map((e) => ({ add_on: e.add_on, type: e.type, program: e.program, release: e.release }))
    .sort((a, b) => a.add_on.localeCompare(b.add_on) || a.program.localeCompare(b.program));
  return { as_add_on: [...groups.values()], as_primary };
}

/**
 * The dossier of a code on a day (and in a state): MUE per setting, the PTP edits in force,
 * the PFS indicators and amounts, the DMEPOS fee, prior authorization. Codes and CMS's numbers
 * only. A release that took effect after the day is used, and said in `notes`.
 */
export function buildCodeDossier(source: MedicareRuleSource, req: DossierRequest): CodeDossier {
  const { code, date } = req;
  const state = req.state ?? null;
  const notes: string[] = [];
  const later = (what: string, release: string, effective: string | null) => {
    if (effective !== null && effective > date)
      notes.push(
        `${what} ${release} takes effect on ${effective}, after ${date}: its values are shown.`,
      );
  };
  const mue = source.mue(code).map((m) => {
    later("MUE table", m.release, m.effective);
    return {
      setting: m.setting,
      program: m.program,
      value: m.value,
      mai: m.mai,
      mai_meaning: describeMai(m.mai),
      rationale: m.rationale,
      release: m.release,
    };
  });
  const active = source.ptpEditsOf(code).filter((e) => ptpEditApplies(e, date));
  const ptp: CodeDossier["ptp"] = {
    count: active.length,
    as_column_1: active.filter((e) => e.column1 === code).length,
    as_column_2: active.filter((e) => e.column2 === code).length,
  };
  if (req.edits)
    ptp.edits = active
      .map((e) => editOf(e, code))
      .sort(
        (a, b) =>
          a.code_is.localeCompare(b.code_is) ||
          a.partner.localeCompare(b.partner) ||
          a.setting.localeCompare(b.setting),
      );
  const add_on = addOnsOf(source, code, date);
  // The nonQPP file's rows (what most are paid by) when it is there; the QPP file's are noted.
  const allFees = source.pfs(code);
  const entries = allFees.some((f) => f.setting === "")
    ? allFees.filter((f) => f.setting === "")
    : allFees;
  const qpp = allFees.find((f) => f.setting === "qpp");
  if (qpp && entries !== allFees)
    notes.push(
      `The QPP file (APM participants) is imported too: its conversion factor is ${qpp.conversion_factor}.`,
    );
  const gpci =
    req.locality !== undefined && entries.length
      ? findLocality(source.gpci(), req.locality, req.state)
      : undefined;
  const fees = entries.map((f): DossierFee => {
    later("PFS release", f.release, f.effective);
    const rvu = (pe: number) => ({ work: f.work_rvu, pe, mp: f.mp_rvu });
    const national = { work: 1, pe: 1, mp: 1 };
    // The non-facility and facility amounts at one set of indices (national, or a locality's).
    const amountsAt = (indices: Parameters<typeof feeAmount>[1]) => ({
      non_facility: f.non_facility_na
        ? null
        : feeAmount(rvu(f.non_facility_pe_rvu), indices, f.conversion_factor),
      facility: f.facility_na
        ? null
        : feeAmount(rvu(f.facility_pe_rvu), indices, f.conversion_factor),
    });
    const fee: DossierFee = {
      modifier: f.modifier,
      status: f.status,
      global_days: f.global_days,
      pctc: f.pctc,
      rvus: {
        work: f.work_rvu,
        non_facility_pe: f.non_facility_pe_rvu,
        facility_pe: f.facility_pe_rvu,
        mp: f.mp_rvu,
      },
      conversion_factor: f.conversion_factor,
      national: amountsAt(national),
      release: f.release,
    };
    if (gpci)
      fee.locality = {
        state: gpci.state,
        locality: gpci.locality,
        name: gpci.name,
        ...amountsAt(gpci),
        gpci_release: gpci.release,
      };
    return fee;
  });
  const dmeFees = source.dmepos(code);
  if (dmeFees.length && state === null)
    notes.push(
      `DMEPOS fees are by state (${new Set(dmeFees.map((f) => f.state)).size} states): give a state.`,
    );
  const dmepos = dmeFees
    .filter((f) => state !== null && f.state === (statewideOf(state) ?? state))
    .map((f) => ({
      modifier: f.modifier,
      modifier2: f.modifier2,
      state: f.state,
      non_rural: f.non_rural,
      rural: f.rural,
      release: f.release,
    }));
  const prior_authorization = source
    .priorAuth(code)
    .filter((p) =>
      state === null
        ? date >= p.from && (p.to === null || date <= p.to)
        : priorAuthApplies(p, state, date),
    )
    .map(({ code: _code, ...entry }) => entry);
  return {
    code,
    date,
    state,
    mue,
    ptp,
    add_on,
    fees,
    dmepos,
    prior_authorization,
    notes: [...new Set(notes)],
    releases: source.releases(),
  };
}
