/**
 * The tables of Medicare's edits, fees and prior-authorization lists in a snapshot (written by
 * `data import edits|fees|pa`, read by `code` and `check`). They sit beside the catalogue's
 * tables and change none of them: a snapshot without them is read as before, and the snapshot
 * format version is unchanged; `medicare_rules_version` in `rule_release`'s rows is theirs.
 * Dates are whole numbers YYYYMMDD (4.5 million PTP rows: half the size of text dates);
 * rationales are numbers into `rule_text`. No table has a column for a code's description.
 */
// 2: the add-on code edits (aoc_edit) were added; a snapshot of version 1 has no such table
// and is read as holding none.
export const MEDICARE_RULES_VERSION = 2;

export const MEDICARE_TABLES = `
CREATE TABLE IF NOT EXISTS rule_release (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  setting TEXT NOT NULL,
  program TEXT NOT NULL,
  release TEXT NOT NULL,
  part INTEGER NOT NULL,
  file TEXT NOT NULL,
  rows INTEGER NOT NULL,
  odd_rows INTEGER NOT NULL,
  effective INTEGER,
  imported_at TEXT NOT NULL,
  rules_version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rule_text (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS ptp_edit (
  release INTEGER NOT NULL,
  column1 TEXT NOT NULL,
  column2 TEXT NOT NULL,
  pre_1996 INTEGER NOT NULL,
  effective INTEGER NOT NULL,
  deletion INTEGER,
  modifier INTEGER NOT NULL,
  rationale INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS mue (
  release INTEGER NOT NULL,
  code TEXT NOT NULL,
  value INTEGER NOT NULL,
  mai INTEGER,
  rationale INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS aoc_edit (
  release INTEGER NOT NULL,
  add_on TEXT NOT NULL,
  primary_code TEXT,
  type INTEGER NOT NULL,
  effective INTEGER NOT NULL,
  deletion INTEGER,
  add_on_deletion INTEGER,
  primary_deletion INTEGER,
  notes INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS pfs (
  release INTEGER NOT NULL,
  code TEXT NOT NULL,
  modifier TEXT NOT NULL,
  status TEXT NOT NULL,
  global_days TEXT NOT NULL,
  pctc TEXT NOT NULL,
  work_rvu REAL NOT NULL,
  nf_pe_rvu REAL NOT NULL,
  nf_na INTEGER NOT NULL,
  f_pe_rvu REAL NOT NULL,
  f_na INTEGER NOT NULL,
  mp_rvu REAL NOT NULL,
  nf_total REAL NOT NULL,
  f_total REAL NOT NULL,
  conversion_factor REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS gpci (
  release INTEGER NOT NULL,
  mac TEXT NOT NULL,
  state TEXT NOT NULL,
  locality TEXT NOT NULL,
  name TEXT NOT NULL,
  work REAL NOT NULL,
  pe REAL NOT NULL,
  mp REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS dmepos_fee (
  release INTEGER NOT NULL,
  code TEXT NOT NULL,
  modifier TEXT NOT NULL,
  modifier2 TEXT NOT NULL,
  state TEXT NOT NULL,
  non_rural REAL,
  rural REAL,
  jurisdiction TEXT NOT NULL,
  category TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS prior_auth (
  release INTEGER NOT NULL,
  code TEXT NOT NULL,
  program TEXT NOT NULL,
  category TEXT NOT NULL,
  states TEXT NOT NULL,
  "from" INTEGER NOT NULL,
  "to" INTEGER,
  source TEXT NOT NULL
);
`;

/**
 * Dropped before a bulk import and made again after it (cheaper than updating them). The pair
 * index answers a claim's pairs from the index alone (column 1 IN ... AND column 2 IN ...).
 */
export const MEDICARE_INDEXES = `
CREATE INDEX IF NOT EXISTS ptp_edit_pair ON ptp_edit(column1, column2);
CREATE INDEX IF NOT EXISTS ptp_edit_column2 ON ptp_edit(column2);
CREATE INDEX IF NOT EXISTS mue_code ON mue(code);
CREATE INDEX IF NOT EXISTS aoc_edit_add_on ON aoc_edit(add_on);
CREATE INDEX IF NOT EXISTS aoc_edit_primary ON aoc_edit(primary_code);
CREATE INDEX IF NOT EXISTS pfs_code ON pfs(code);
CREATE INDEX IF NOT EXISTS dmepos_fee_code ON dmepos_fee(code);
CREATE INDEX IF NOT EXISTS prior_auth_code ON prior_auth(code);
`;

export const MEDICARE_INDEX_NAMES = [
  "ptp_edit_pair",
  "ptp_edit_column2",
  "mue_code",
  "aoc_edit_add_on",
  "aoc_edit_primary",
  "pfs_code",
  "dmepos_fee_code",
  "prior_auth_code",
];

/** The table each kind of file fills. */
export const RULE_TABLE = {
  ptp: "ptp_edit",
  mue: "mue",
  aoc: "aoc_edit",
  pfs: "pfs",
  gpci: "gpci",
  dmepos: "dmepos_fee",
  pa: "prior_auth",
} as const;

/** `YYYY-MM-DD` to YYYYMMDD. */
export function dateNumber(date: string): number {
  return Number(date.replaceAll("-", ""));
}

/** YYYYMMDD to `YYYY-MM-DD`. */
export function numberDate(n: number): string {
  const s = String(n).padStart(8, "0");
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}
