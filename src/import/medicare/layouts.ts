// CMS's layouts of the NCCI PTP and MUE tables, the PFS relative value file (PPRRVU), the GPCI
// file, the DMEPOS fee schedule and our prior-authorization CSV, as found in public code and
// data that read them (docs/data.md, "Medicare's edits, fees and prior authorization").
import { UsageError } from "../../errors.js";
import type { NcciProgram } from "../../domain/medicare-edits.js";

/** The kinds of file `data import edits|fees|pa` reads. */
export type RuleFileKind = "ptp" | "mue" | "aoc" | "pfs" | "gpci" | "dmepos" | "pa";

/** What each `data import` subcommand takes. */
export const IMPORT_KINDS = {
  edits: ["ptp", "mue", "aoc"],
  fees: ["pfs", "gpci", "dmepos"],
  pa: ["pa"],
} as const satisfies Record<string, readonly RuleFileKind[]>;
export type ImportGroup = keyof typeof IMPORT_KINDS;

const KIND_NAMES: Record<RuleFileKind, string> = {
  ptp: "an NCCI PTP edit file (ccipra/ccioph: 'Column 1', 'Column 2' ... 'PTP Edit Rationale')",
  mue: "an NCCI MUE table ('HCPCS/CPT Code', '<setting> MUE Values', 'MUE Adjudication Indicator', 'MUE Rationale')",
  pfs: "a PFS relative value file (PPRRVU*.csv, its header 'HCPCS,MOD,...' on the tenth row)",
  gpci: "a GPCI file (GPCI*.csv: 'Locality Number', 'PW GPCI', 'PE GPCI', 'MP GPCI')",
  dmepos: "a DMEPOS fee schedule (DMEPOS*.csv: 'HCPCS,Mod,Mod2,JURIS,CATG,...,AL (NR),AL (R),...')",
  pa: "a prior-authorization list (CSV: code, program, category, states, from, to, source)",
  aoc: "an NCCI add-on code edit file (AOC_*.xlsx: 'AOC_Edit_Type', 'Add-On_Code', 'Primary_Code', 'AOC_Edit_EffDT', ...)",
};

/** A file's layout as told from its head: its kind, where its header is, its release. */
export interface Layout {
  kind: RuleFileKind;
  /** The index of the header record (the last of its rows); data follows it. */
  header: number;
  setting: string;
  program: NcciProgram;
  release: string;
  part: number;
  effective: string | null;
  /** Column positions by name (for CSV layouts). */
  columns: Record<string, number>;
}

const squash = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
const bare = (s: string | undefined) => (s ?? "").replace(/\s+/g, "").toLowerCase();
const MONTHS: Record<string, string> = { jan: "01", apr: "04", jul: "07", oct: "10" };

/** The kind a file's head looks like, whatever was asked for (for the message). */
function lookAt(records: string[][]): { kind: RuleFileKind; at: number } | undefined {
  for (let i = 0; i < records.length; i++) {
    const r = records[i] ?? [];
    const first = squash(r[0]);
    if (first === "Column 1" && squash(r[1]) === "Column 2") return { kind: "ptp", at: i };
    if (bare(r[0]) === "hcpcs/cptcode" && /MUE Values/i.test(r[1] ?? ""))
      return { kind: "mue", at: i };
    if (first === "HCPCS" && squash(r[1]) === "MOD") return { kind: "pfs", at: i };
    if (first === "HCPCS" && r.some((c) => squash(c) === "JURIS")) return { kind: "dmepos", at: i };
    if (r.some((c) => /Locality Number/i.test(c)) && r.some((c) => /PW GPCI/i.test(c)))
      return { kind: "gpci", at: i };
    if (bare(r[0]) === "code" && r.some((c) => bare(c) === "program")) return { kind: "pa", at: i };
    const names = r.map(aocName);
    if (
      names.some((n) => AOC_COLUMNS.addOn.test(n)) &&
      names.some((n) => AOC_COLUMNS.primary.test(n))
    )
      return { kind: "aoc", at: i };
  }
  return undefined;
}

function refuse(label: string, expected: readonly RuleFileKind[], seen: string | undefined): never {
  const wanted = expected.map((k) => KIND_NAMES[k]).join(", or ");
  throw new UsageError(
    `${label}: not ${wanted}${seen ? `; it looks like ${seen}` : ""}`,
    "Give the file as CMS publishes it (nothing was imported), or use the `data import` command for its kind.",
  );
}

/**
 * Tells a file's layout from its first records and its name (and the zip's). A file of
 * another kind than the command takes is refused naming what was expected (exit 2).
 */
export function identifyLayout(
  records: string[][],
  label: string,
  names: string,
  expected: readonly RuleFileKind[],
  program?: NcciProgram,
): Layout {
  const seen = lookAt(records);
  if (!seen || !(expected as readonly string[]).includes(seen.kind)) {
    // A PPRRVU whose HCPCS,MOD header is not on its tenth row is not CMS's layout.
    refuse(label, expected, seen ? KIND_NAMES[seen.kind] : undefined);
  }
  const kind = seen.kind;
  const header = records[seen.at] ?? [];
  const base: Layout = {
    kind,
    header: seen.at,
    setting: "",
    program: program ?? "medicare",
    release: label.split(/[\\/]| > /).pop() ?? label,
    part: 0,
    effective: null,
    columns: {},
  };
  if (kind === "ptp") return ptpLayout(base, records, label, names, program);
  if (kind === "mue") return mueLayout(base, header, label, names, program);
  if (kind === "aoc") return aocLayout(base, header, label, names, program);
  if (kind === "pfs") return pfsLayout(base, records, label, names);
  if (kind === "gpci") return gpciLayout(base, header, label, names);
  if (kind === "dmepos") return dmeposLayout(base, header, names);
  return paLayout(base, header, label);
}

function ptpLayout(
  base: Layout,
  records: string[][],
  label: string,
  names: string,
  program: NcciProgram | undefined,
): Layout {
  const header = records[base.header] ?? [];
  if (!header.some((c) => /^Modifier/i.test(squash(c))))
    refuse(label, ["ptp"], "a file with 'Column 1' and 'Column 2' but no 'Modifier' column");
  const m = /(ccipra|ccioph)-(v\d+r\d+)-f(\d+)/.exec(names);
  const setting = m
    ? m[1] === "ccipra"
      ? "practitioner"
      : "hospital"
    : /hospital|ccioph|oph/.test(names)
      ? "hospital"
      : /durable|dme/.test(names)
        ? "dme"
        : "practitioner";
  const medicaid = /medicaid/.test(names);
  return {
    ...base,
    setting,
    program: program ?? (medicaid ? "medicaid" : "medicare"),
    release: m?.[2] ?? quarterRelease(names) ?? base.release,
    part: Number(m?.[3] ?? 0),
  };
}

/** A quarter in a file's or zip's name (`medicaid-ncci-2026-q3-...`, `...-q2-2026-...`) as `2026Q3`. */
function quarterRelease(names: string): string | undefined {
  const m = /(\d{4})-?q([1-4])\b|\bq([1-4])-(\d{4})/.exec(names);
  return m ? `${m[1] ?? m[4]}Q${m[2] ?? m[3]}` : undefined;
}

function mueSetting(column: string): string {
  const s = column
    .replace(/MUE Values/i, "")
    .trim()
    .toLowerCase();
  if (/practitioner/.test(s)) return "practitioner";
  if (/hospital|facility/.test(s)) return "hospital";
  if (/dme/.test(s)) return "dme";
  return s || "practitioner";
}

function mueLayout(
  base: Layout,
  header: string[],
  label: string,
  names: string,
  program: NcciProgram | undefined,
): Layout {
  const hasMai = /Adjudication Indicator/i.test(header[2] ?? "");
  const namedMedicare = /(^|[\s_/])mcr_/.test(names) || /medicare/.test(names);
  const namedMedicaid = /(^|[\s_/])mcd_/.test(names) || /medicaid/.test(names);
  const wanted = program ?? (namedMedicaid ? "medicaid" : namedMedicare ? "medicare" : undefined);
  if (wanted === "medicare" && !hasMai)
    throw new UsageError(
      `${label}: a Medicare MUE table was expected (its third column 'MUE Adjudication Indicator'), but this table has no indicator (a Medicaid MUE table's layout)`,
      "Give the Medicare table, or import this one as Medicaid's with --program medicaid (nothing was imported).",
    );
  if (wanted === "medicaid" && hasMai)
    throw new UsageError(
      `${label}: a Medicaid MUE table was expected (no adjudication indicator), but this one has 'MUE Adjudication Indicator' (Medicare's layout)`,
      "Give the Medicaid table, or import this one with --program medicare (nothing was imported).",
    );
  const eff = /eff_(\d\d)-(\d\d)-(\d{4})/.exec(names);
  const effective = eff ? `${eff[3]}-${eff[1]}-${eff[2]}` : null;
  return {
    ...base,
    setting: mueSetting(header[1] ?? ""),
    program: wanted ?? (hasMai ? "medicare" : "medicaid"),
    release: effective ?? quarterRelease(names) ?? base.release,
    effective,
    columns: hasMai
      ? { code: 0, value: 1, mai: 2, rationale: 3 }
      : { code: 0, value: 1, rationale: 2 },
  };
}

// The AOC workbook's header names (`AOC_Edit_Type`, `Add-On_Code`, `AOC_DelDT`, `Primary_Code`,
// `Primary_Code_DelDT`, `AOC_Edit_EffDT`, `AOC_Edit_DelDT`, `Special_Instruction_Notes`), read
// lower case with `_`, `-`, brackets and spaces as one space (some releases add "(Julian)").
const aocName = (s: string | undefined) =>
  (s ?? "")
    .toLowerCase()
    .replace(/[\s_\-()]+/g, " ")
    .trim();
const AOC_COLUMNS = {
  type: /^aoc edit type\b/,
  addOn: /^add ?on code$/,
  addOnDel: /^aoc del ?dt\b/,
  primary: /^primary code$/,
  primaryDel: /^primary code del ?dt\b/,
  eff: /^aoc edit eff ?dt\b/,
  del: /^aoc edit del ?dt\b/,
  notes: /^special instruction/,
};
const QUARTER_MONTH = ["01", "04", "07", "10"];

function aocLayout(
  base: Layout,
  header: string[],
  label: string,
  names: string,
  program: NcciProgram | undefined,
): Layout {
  const columns: Record<string, number> = {};
  const cells = header.map(aocName);
  for (const [key, re] of Object.entries(AOC_COLUMNS)) {
    const at = cells.findIndex((c) => re.test(c));
    if (at < 0 && key !== "notes")
      throw new UsageError(
        `${label}: an NCCI add-on code edit file was expected, but it has no ${key} column (AOC_Edit_Type, Add-On_Code, AOC_DelDT, Primary_Code, Primary_Code_DelDT, AOC_Edit_EffDT, AOC_Edit_DelDT)`,
        "Give the AOC workbook as CMS publishes it (nothing was imported).",
      );
    if (at >= 0) columns[key] = at;
  }
  const m = /aoc_v(\d{4})q([1-4])/.exec(names);
  const medicaid = /(^|[-_\s])mcd\b|medicaid/.test(names);
  return {
    ...base,
    program: program ?? (medicaid ? "medicaid" : "medicare"),
    release: m ? `V${m[1]}Q${m[2]}` : base.release,
    effective: m ? `${m[1]}-${QUARTER_MONTH[Number(m[2]) - 1]}-01` : null,
    columns,
  };
}

// The PPRRVU's column names spread over the rows above its header (cli.md): each column's name
// is its cells of rows 6 to 10 joined.
const PFS_COLUMNS: Record<string, string> = {
  code: "HCPCS",
  modifier: "MOD",
  status: "STATUS CODE",
  work: "WORK RVU",
  nfPe: "NON-FAC PE RVU",
  nfNa: "NON-FAC NA INDICATOR",
  fPe: "FACILITY PE RVU",
  fNa: "FACILITY NA INDICATOR",
  mp: "MP RVU",
  nfTotal: "NON-FACILITY TOTAL",
  fTotal: "FACILITY TOTAL",
  pctc: "PCTC IND",
  global: "GLOB DAYS",
  cf: "CONV FACTOR",
};

function pfsLayout(base: Layout, records: string[][], label: string, names: string): Layout {
  if (base.header !== 9)
    throw new UsageError(
      `${label}: a PPRRVU file was expected with its header ('HCPCS,MOD,DESCRIPTION,...') on the tenth row, as CMS publishes it; here it is on row ${base.header + 1}`,
      "Give PPRRVU*.csv from CMS's rvuNN zip unchanged (nothing was imported).",
    );
  const width = Math.max(...records.slice(5, 10).map((r) => r.length));
  const names_: string[] = [];
  for (let c = 0; c < width; c++)
    names_.push(
      records
        .slice(5, 10)
        .map((r) => squash(r[c]))
        .filter(Boolean)
        .join(" "),
    );
  const columns: Record<string, number> = {};
  for (const [key, name] of Object.entries(PFS_COLUMNS)) {
    const at = names_.findIndex((n) => n === name || n.endsWith(` ${name}`));
    if (at < 0)
      throw new UsageError(
        `${label}: a PPRRVU file was expected, but it has no '${name}' column (its names read over rows 6 to 10)`,
        "Give PPRRVU*.csv from CMS's rvuNN zip unchanged (nothing was imported).",
      );
    columns[key] = at;
  }
  const zip = /rvu(\d\d)([a-d])/.exec(names);
  const file = /pprrvu(\d{4})_(jan|apr|jul|oct)/.exec(names);
  const quarterMonth: Record<string, string> = { a: "01", b: "04", c: "07", d: "10" };
  const effective = file
    ? `${file[1]}-${MONTHS[file[2] ?? "jan"]}-01`
    : zip
      ? `20${zip[1]}-${quarterMonth[zip[2] ?? "a"]}-01`
      : null;
  const letter: Record<string, string> = { jan: "A", apr: "B", jul: "C", oct: "D" };
  const release = zip
    ? `RVU${zip[1]}${(zip[2] ?? "").toUpperCase()}`
    : file
      ? `RVU${(file[1] ?? "").slice(2)}${letter[file[2] ?? "jan"]}`
      : base.release;
  // CMS's rvu zips hold the file twice: for APM participants (QPP) and for everyone else
  // (nonQPP), with two conversion factors; each has a slot of its own.
  const qpp = /(^|[^n])qpp/.test(names.replace(/nonqpp/g, ""));
  return {
    ...base,
    setting: qpp ? "qpp" : "",
    release,
    effective,
    columns,
  };
}

function gpciLayout(base: Layout, header: string[], label: string, names: string): Layout {
  const find = (re: RegExp) => header.findIndex((c) => re.test(c));
  const columns = {
    mac: find(/\(MAC\)|Contractor/i),
    state: find(/^\s*State\s*$/i),
    locality: find(/Locality Number/i),
    name: find(/Locality Name/i),
    work: find(/PW GPCI/i),
    pe: find(/PE GPCI/i),
    mp: find(/MP GPCI/i),
  };
  for (const [key, at] of Object.entries(columns))
    if (at < 0)
      throw new UsageError(
        `${label}: a GPCI file was expected, but it has no ${key} column`,
        "Give GPCI*.csv from CMS's rvuNN zip unchanged (nothing was imported).",
      );
  const year = /gpci(\d{4})/.exec(names)?.[1] ?? /(\d{4})/.exec(header.join(" "))?.[1];
  return { ...base, release: year ? `GPCI${year}` : base.release, columns };
}

function dmeposLayout(base: Layout, header: string[], names: string): Layout {
  const columns: Record<string, number> = {};
  header.forEach((cell, i) => {
    const c = squash(cell);
    const state = /^([A-Z]{2}) \((NR|R)\)$/.exec(c);
    if (state) columns[`${state[1]}:${state[2]}`] = i;
    else if (["HCPCS", "Mod", "Mod2", "JURIS", "CATG"].includes(c)) columns[c] = i;
  });
  const m = /dmepos(\d\d)_(jan|apr|jul|oct)/.exec(names);
  const effective = m ? `20${m[1]}-${MONTHS[m[2] ?? "jan"]}-01` : null;
  return {
    ...base,
    release: m ? `DMEPOS${m[1]}_${(m[2] ?? "").toUpperCase()}` : base.release,
    effective,
    columns,
  };
}

const PA_COLUMNS = ["code", "program", "states", "from", "to", "source"];

function paLayout(base: Layout, header: string[], label: string): Layout {
  const columns: Record<string, number> = {};
  header.forEach((cell, i) => (columns[bare(cell)] = i));
  const lacking = PA_COLUMNS.filter((c) => columns[c] === undefined);
  if (lacking.length)
    throw new UsageError(
      `${label}: a prior-authorization list was expected, but it has no ${lacking.join(", ")} column`,
      `Give a CSV with the columns ${PA_COLUMNS.join(", ")} (and category) (nothing was imported).`,
    );
  return { ...base, columns };
}
