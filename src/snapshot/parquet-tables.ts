// The tables `data export --format parquet` writes (cli.md, "Beyond one machine"), in one
// place: each one's Parquet columns and the snapshot query that reads it. docs/data.md
// ("Parquet tables") documents the same list; docs/sql/check.sql reads it.

/** A Parquet column's type: text, a calendar day, or a number. */
export type ParquetType = "STRING" | "DATE" | "INT64" | "DOUBLE" | "BYTE_ARRAY";

export interface ParquetColumn {
  name: string;
  type: ParquetType;
  /** A code column: trimmed and upper case (ICD-10-CM also dotless), as the filter compares. */
  code?: boolean;
}

/** One Parquet file: its columns and the snapshot's query that gives them, in this order. */
export interface ParquetTable {
  name: string;
  /** The snapshot tables it reads: the Parquet table is written only when all of them exist. */
  needs: readonly string[];
  columns: readonly ParquetColumn[];
  /** The query; undefined for a table exported column for column (see genericTable). */
  select?: string;
}

const text = (name: string): ParquetColumn => ({ name, type: "STRING" });
const day = (name: string): ParquetColumn => ({ name, type: "DATE" });

// A code's normalised form is the snapshot's key (`SYSTEM:CODE`, made by makeCodeKey) less its
// system: the normalisation is done once, where the snapshot was built.
const normalisedCode = (table: string) =>
  `substr(${table}.key, length(${table}.code_system) + 2) AS code`;

/** The catalogue's tables, always written. */
export const CORE_TABLES: readonly ParquetTable[] = [
  {
    name: "payers",
    needs: ["payer"],
    columns: [text("payer_id"), text("display_name")],
    select: "SELECT payer_id, display_name FROM payer ORDER BY seq",
  },
  {
    name: "lobs",
    needs: ["lob"],
    columns: [text("lob_id"), text("payer_id"), text("lob"), text("state")],
    select: "SELECT lob_id, payer_id, lob, state FROM lob ORDER BY seq",
  },
  {
    name: "policies",
    needs: ["version"],
    columns: [
      text("policy_id"),
      text("series"),
      text("policy_number"),
      text("title"),
      day("effective_from_date"),
      day("effective_to_date"),
      text("file_type"),
      text("file_url"),
      text("listing_url"),
      text("summary"),
      text("criteria_text"),
    ],
    select:
      "SELECT policy_id, series, policy_number, title, effective_from_date, effective_to_date," +
      " file_type, file_url, listing_url, summary, criteria_text FROM version ORDER BY seq",
  },
  {
    // A version's links to LOBs, each with its own period, and the LOB's payer, category and
    // state beside it (the scope a claim check reads without a join).
    name: "applicability",
    needs: ["applicability", "version", "lob"],
    columns: [
      text("policy_id"),
      text("lob_id"),
      text("payer_id"),
      text("lob"),
      text("state"),
      day("from_date"),
      day("to_date"),
    ],
    select:
      "SELECT v.policy_id, a.lob_id, l.payer_id, l.lob, l.state," +
      ' a."from" AS from_date, a."to" AS to_date' +
      " FROM applicability a JOIN version v ON v.seq = a.version" +
      " LEFT JOIN lob l ON l.lob_id = a.lob_id ORDER BY a.version, a.seq",
  },
  {
    name: "code_links",
    needs: ["code_link", "version"],
    columns: [
      text("policy_id"),
      text("code_system"),
      text("code"),
      text("code_as_listed"),
      text("relationship"),
      text("category"),
    ],
    select:
      `SELECT v.policy_id, c.code_system, ${normalisedCode("c")}, c.code AS code_as_listed,` +
      " c.relationship, c.category FROM code_link c JOIN version v ON v.seq = c.version" +
      " ORDER BY c.version, c.seq",
  },
  {
    name: "catalogue",
    needs: ["code"],
    columns: [text("code_system"), text("code"), text("code_as_listed"), text("description")],
    select:
      `SELECT code.code_system, ${normalisedCode("code")}, code.code AS code_as_listed,` +
      " code.description FROM code ORDER BY seq",
  },
];

const int = (name: string): ParquetColumn => ({ name, type: "INT64" });
const real = (name: string): ParquetColumn => ({ name, type: "DOUBLE" });
const code = (name: string): ParquetColumn => ({ name, type: "STRING", code: true });
// The dossier's tables (src/snapshot/medicare-schema.ts) with their release's name and their
// rationale's text in place of the ids; dates there are YYYYMMDD numbers, here DATE.
const release = "JOIN rule_release r ON r.id = x.release";
const rationale = "LEFT JOIN rule_text t ON t.id = x.rationale";

/**
 * Medicare's edits, fees and prior-authorization lists (cli.md, "the code dossier"), written
 * when the snapshot has their rows (`data import edits|fees|pa`), skipped when it has none.
 */
export const MEDICARE_TABLES: readonly ParquetTable[] = [
  {
    name: "ptp_edits",
    needs: ["ptp_edit", "rule_release", "rule_text"],
    columns: [
      text("setting"),
      text("program"),
      text("release"),
      code("column1"),
      code("column2"),
      int("pre_1996"),
      day("effective_date"),
      day("deletion_date"),
      int("modifier"),
      text("rationale"),
    ],
    select:
      "SELECT r.setting, r.program, r.release, x.column1, x.column2, x.pre_1996, x.effective AS" +
      " effective_date, x.deletion AS deletion_date, x.modifier, t.text AS rationale" +
      ` FROM ptp_edit x ${release} ${rationale} ORDER BY x.rowid`,
  },
  {
    name: "mue",
    needs: ["mue", "rule_release", "rule_text"],
    columns: [
      text("setting"),
      text("program"),
      text("release"),
      code("code"),
      int("value"),
      int("mai"),
      text("rationale"),
    ],
    select:
      "SELECT r.setting, r.program, r.release, x.code, x.value, x.mai, t.text AS rationale" +
      ` FROM mue x ${release} ${rationale} ORDER BY x.rowid`,
  },
  {
    // NCCI add-on code edits: a row per add-on and primary code (primary null: the contractor's).
    name: "add_on_edits",
    needs: ["aoc_edit", "rule_release", "rule_text"],
    columns: [
      text("program"),
      text("release"),
      int("type"),
      code("add_on"),
      code("primary_code"),
      day("effective_date"),
      day("deletion_date"),
      day("add_on_deletion_date"),
      day("primary_deletion_date"),
      text("notes"),
    ],
    select:
      "SELECT r.program, r.release, x.type, x.add_on, x.primary_code, x.effective AS" +
      " effective_date, x.deletion AS deletion_date, x.add_on_deletion AS add_on_deletion_date," +
      " x.primary_deletion AS primary_deletion_date, t.text AS notes" +
      " FROM aoc_edit x JOIN rule_release r ON r.id = x.release" +
      " LEFT JOIN rule_text t ON t.id = x.notes ORDER BY x.rowid",
  },
  {
    // The physician fee schedule's RVUs (the dossier's `pfs`).
    name: "fees",
    needs: ["pfs", "rule_release"],
    columns: [
      text("release"),
      code("code"),
      text("modifier"),
      text("status"),
      text("global_days"),
      text("pctc"),
      ...["work_rvu", "nf_pe_rvu", "f_pe_rvu", "mp_rvu", "nf_total", "f_total"].map(real),
      real("conversion_factor"),
    ],
    select:
      "SELECT r.release, x.code, x.modifier, x.status, x.global_days, x.pctc, x.work_rvu," +
      " x.nf_pe_rvu, x.f_pe_rvu, x.mp_rvu, x.nf_total, x.f_total, x.conversion_factor" +
      ` FROM pfs x ${release} ORDER BY x.rowid`,
  },
  {
    name: "dmepos_fees",
    needs: ["dmepos_fee", "rule_release"],
    columns: [
      text("release"),
      code("code"),
      text("modifier"),
      text("modifier2"),
      text("state"),
      real("non_rural"),
      real("rural"),
      text("jurisdiction"),
      text("category"),
    ],
    select:
      "SELECT r.release, x.code, x.modifier, x.modifier2, x.state, x.non_rural, x.rural," +
      ` x.jurisdiction, x.category FROM dmepos_fee x ${release} ORDER BY x.rowid`,
  },
  {
    name: "prior_auth",
    needs: ["prior_auth", "rule_release"],
    columns: [
      text("release"),
      code("code"),
      text("program"),
      text("category"),
      text("states"),
      day("from_date"),
      day("to_date"),
      text("source"),
    ],
    select:
      'SELECT r.release, x.code, x.program, x.category, x.states, x."from" AS from_date,' +
      ` x."to" AS to_date, x.source FROM prior_auth x ${release} ORDER BY x.rowid`,
  },
];

/**
 * Tables of these names that a snapshot holds without the dossier's layout are written column
 * for column (genericTable).
 */
export const OPTIONAL_TABLES: readonly string[] = ["ptp_edits", "mue", "fees", "prior_auth"];

/** A column of an optional table as SQLite declares it (PRAGMA table_info). */
export interface DeclaredColumn {
  name: string;
  type: string;
}

/**
 * An optional table's Parquet columns from its declaration: INTEGER as INT64, REAL/NUMERIC
 * as DOUBLE, BLOB as bytes, text as STRING; a column named `date` or `..._date`, or declared
 * DATE, as DATE; a column named `code` or `..._code` normalised as a code.
 */
export function genericTable(name: string, declared: readonly DeclaredColumn[]): ParquetTable {
  const columns = declared.map(({ name: column, type }): ParquetColumn => {
    const t = type.toUpperCase();
    if (t.includes("DATE") || /(^|_)date$/i.test(column)) return day(column);
    if (t.includes("INT")) return { name: column, type: "INT64" };
    if (/REAL|FLOA|DOUB|NUM|DEC/.test(t)) return { name: column, type: "DOUBLE" };
    if (t.includes("BLOB")) return { name: column, type: "BYTE_ARRAY" };
    return /(^|_)code$/i.test(column) ? { ...text(column), code: true } : text(column);
  });
  return { name, needs: [name], columns };
}
