import { createHash } from "node:crypto";
import {
  CODE_SYSTEMS,
  RELATIONSHIPS,
  STATE_CODES,
  type CodeSystem,
  type LobCategory,
  type StateCode,
} from "../../contract/index.js";
import type { DatasetCodeLink, DatasetLink, DatasetPolicy } from "../../dataset/schema.js";
import { storesText } from "../../dataset/text-store.js";
import type { DatasetSink, DatasetSummary } from "../../dataset/sink.js";
import { InterruptedError, UsageError } from "../../errors.js";
import { readHcpcsAnweb, readIcd10cmOrder } from "./code-sets.js";
import { readTable, type BadRow, type Row } from "./csv.js";
import { htmlToPlainLines, htmlToPlainText, htmlToPlainTextPrefix } from "./html.js";
import {
  classifyModifier,
  classifyProcedureCode,
  cutAtWord,
  dottedIcd10,
  firstDate,
  isProposed,
  lobsOfContractor,
  toCategory,
  toDate,
  UnknownContractorKind,
} from "./map.js";
import { htmlToMarkdownInPieces } from "./html-pieces.js";
import {
  exclusionOf,
  keySentences,
  readParagraph,
  type KeySentences,
  type ParagraphReading,
} from "./paragraph-rule.js";
import { findTables, type TableSet } from "./sources.js";

export interface McdImportOptions {
  /** `--icd10cm FILE`: CMS's ICD-10-CM order file (or its zip). */
  icd10cm?: string | undefined;
  /** `--hcpcs FILE`: CMS's HCPCS Level II ANWEB file (or its zip). */
  hcpcs?: string | undefined;
  /** `--strict`: a malformed row fails the import instead of being skipped. */
  strict?: boolean | undefined;
  /**
   * `--max-links N`: the most code links the import holds while it reads the export's code
   * lists (default MAX_HELD_LINKS); descriptions and group paragraphs count by their size.
   */
  maxLinks?: number | undefined;
  /** Where the data came from, for the output's meta (default: the export and its inputs). */
  source?: string | undefined;
  /** Stops the import (Ctrl-C): nothing is written. */
  signal?: AbortSignal | undefined;
  /** What the import is doing now, for a progress line. */
  progress?: ((message: string) => void) | undefined;
  /** More tables to read, by file name (the pull's CMS revision records), each row to its reader. */
  alsoRead?: Record<string, (row: Row) => void> | undefined;
}

/** What an import did, for the summary on stderr. */
export interface McdImportReport {
  documents: { lcd: number; article: number; ncd: number };
  /** `--icd10cm` / `--hcpcs` files in which no line of that format was recognised. */
  unrecognised: Array<{ flag: "--icd10cm" | "--hcpcs"; file: string }>;
  /** Rows and links left out by the rules of mcd-import.md, by reason. */
  leftOut: Map<string, number>;
  /**
   * HCPCS/CPT links made `DOES_NOT_COVER` by their group's paragraph: `named` by a sentence
   * naming them (rule 2), `group` by a heading or sentence about the whole group (rule 3).
   */
  excluded: { named: number; group: number };
  /** NCD rows that are retirement notices (terminated before they took effect), kept retired. */
  retiredNcds: number;
  /** NCD rows retired by their title alone ("... - RETIRED", no termination date), kept retired. */
  retiredNcdsByTitle: number;
  /** Malformed rows skipped, by reason, with the first few named by file and line. */
  skipped: { count: number; byReason: Map<string, number>; examples: string[] };
  /** Catalogue descriptions by where they came from. */
  codes: Map<string, number>;
  /** Tables the export lacked that the import can do without. */
  missing: string[];
  asOf: string | null;
  written: DatasetSummary;
}

const PAYER = { payer_id: "CMS", display_name: "Medicare (CMS)" };
/**
 * The most code links the import holds unless `--max-links` says more. The code lists are read
 * before the documents, and each link waits in memory (~100 bytes) until its document is
 * written: the whole export has some 500,000, so millions are a bomb (one document's or spread
 * over many), refused before memory runs out (peak RSS ~350 MB at the limit).
 */
export const MAX_HELD_LINKS = 2_000_000;
/**
 * Descriptions and group paragraphs held for the whole import count against the same limit,
 * one link per this many characters (a link costs about as much as 50 characters of text).
 */
const CHARS_PER_LINK = 50;

const MCD = "https://www.cms.gov/medicare-coverage-database";
const LISTING = {
  lcd: `${MCD}/reports/local-coverage-final-lcds-state-report.aspx`,
  article: `${MCD}/reports/local-coverage-articles-state-report.aspx`,
  ncd: `${MCD}/reports/national-coverage-ncd-report.aspx`,
};
const STATES = new Set<string>(STATE_CODES);
const NATIONWIDE = ["medicare_part_a", "medicare_part_b"] as const;

interface Jurisdiction {
  state: string;
  term: string | null;
}
interface Group {
  /** Null when the paragraph says nothing (empty, `N/A`). */
  category: string | null;
  reading: ParagraphReading;
  /** Rule 6: where a code's category quotes the paragraph from. */
  key: KeySentences;
}
interface Section {
  column: string;
  label: string;
}

const LCD_SECTIONS: Section[] = [
  { column: "cms_cov_policy", label: "CMS National Coverage Policy" },
  { column: "indication", label: "Coverage Indications, Limitations, and/or Medical Necessity" },
  { column: "coding_guidelines", label: "Coding Guidelines" },
  { column: "doc_reqs", label: "Documentation Requirements" },
  { column: "util_guide", label: "Utilization Guidelines" },
  { column: "diagnoses_support", label: "ICD-10 Codes that Support Medical Necessity" },
  { column: "diagnoses_dont_support", label: "ICD-10 Codes that Do Not Support Medical Necessity" },
  { column: "summary_of_evidence", label: "Summary of Evidence" },
  { column: "analysis_of_evidence", label: "Analysis of Evidence (Rationale for Determination)" },
  { column: "appendices", label: "Appendices" },
  { column: "associated_info", label: "Associated Information" },
  { column: "source_info", label: "Sources of Information" },
  { column: "bibliography", label: "Bibliography" },
  { column: "history_exp", label: "Revision History Explanation" },
];
const ARTICLE_SECTIONS: Section[] = [
  { column: "cms_cov_policy", label: "CMS National Coverage Policy" },
  { column: "description", label: "Article Text" },
  { column: "other_comments", label: "Other Comments" },
  { column: "add_icd10_info", label: "Additional ICD-10 Information" },
  { column: "history_exp", label: "Revision History Explanation" },
];
// An NCD's title marks it retired: "... - RETIRED" (39 rows of the export of 2026-08) or
// "... (RETIRED)" (2 rows).
const RETIRED_TITLE = /(?:\s[-\u2013\u2014]\s*RETIRED|\(\s*RETIRED\s*\))\s*$/i;
const RETIRED_BY_TITLE = "Retired: its title says so; CMS gives no termination date. ";

const NCD_SECTIONS: Section[] = [
  { column: "itm_srvc_desc", label: "Item/Service Description" },
  { column: "indctn_lmtn", label: "Indications and Limitations of Coverage" },
  { column: "xref_txt", label: "Cross Reference" },
  { column: "othr_txt", label: "Other Text" },
  { column: "rev_hstry", label: "Transmittal and Revision History" },
];

/** The code lists of the export: the file, its document, code and group columns, the rule. */
const CODE_TABLES = [
  {
    file: "article_x_hcpc_code.csv",
    doc: "A",
    code: "hcpc_code_id",
    group: "hcpc_code_group",
    groups: "article_x_hcpc_code_group.csv",
    kind: "procedure",
  },
  {
    file: "lcd_x_hcpc_code.csv",
    doc: "L",
    code: "hcpc_code_id",
    group: "hcpc_code_group",
    groups: "lcd_x_hcpc_code_group.csv",
    kind: "procedure",
  },
  {
    file: "article_x_icd10_covered.csv",
    doc: "A",
    code: "icd10_code_id",
    group: "icd10_covered_group",
    groups: "article_x_icd10_covered_group.csv",
    kind: "icd10-covered",
  },
  {
    file: "article_x_icd10_noncovered.csv",
    doc: "A",
    code: "icd10_code_id",
    group: "icd10_noncovered_group",
    groups: "article_x_icd10_noncovered_group.csv",
    kind: "icd10-noncovered",
  },
  {
    file: "article_x_hcpc_modifier.csv",
    doc: "A",
    code: "hcpc_modifier_code_id",
    group: "hcpc_modifier_group",
    groups: "article_x_hcpc_modifier_group.csv",
    kind: "modifier",
  },
] as const;

const DOC_ID = { A: ["article_id", "article_version"], L: ["lcd_id", "lcd_version"] } as const;

const docKey = (kind: "A" | "L", row: Row) =>
  `${kind}:${row.get(DOC_ID[kind][0]).trim()}:${row.get(DOC_ID[kind][1]).trim()}`;
const contractorKey = (row: Row) =>
  `${row.get("contractor_id").trim()}|${row.get("contractor_type_id").trim()}|${row.get("contractor_version").trim()}`;
const codeKey = (system: CodeSystem, code: string) =>
  `${system}|${system === "ICD10CM" ? code.replaceAll(".", "") : code}`;
const bump = (map: Map<string, number>, key: string, by = 1) =>
  map.set(key, (map.get(key) ?? 0) + by);

/**
 * Imports the CMS Medicare Coverage Database export into a dataset sink, by the rules of
 * mcd-import.md: lookups first, then the code lists (held per document, the only part kept
 * in memory), then each document as it is read, which is when it goes to the sink.
 */
export async function importMcd(
  inputs: string[],
  sink: DatasetSink,
  options: McdImportOptions = {},
): Promise<McdImportReport> {
  const set = await findTables(inputs);
  try {
    return await new McdImport(set, sink, options).run();
  } catch (err) {
    await sink.abort();
    throw err;
  } finally {
    await set.close();
  }
}

class McdImport {
  private readonly report: McdImportReport = {
    documents: { lcd: 0, article: 0, ncd: 0 },
    unrecognised: [],
    leftOut: new Map(),
    excluded: { named: 0, group: 0 },
    retiredNcds: 0,
    retiredNcdsByTitle: 0,
    skipped: { count: 0, byReason: new Map(), examples: [] },
    codes: new Map(),
    missing: [],
    asOf: null,
    written: { payers: 0, lobs: 0, codes: 0, policies: 0, applicabilityLinks: 0, codeLinks: 0 },
  };
  private firstBad: BadRow | undefined;
  private readonly states = new Map<string, string>();
  // A contractor's LOB categories, or what about it the import does not know (an error when
  // a document uses it: mcd-import.md wants no guess).
  private readonly contractorLobs = new Map<string, LobCategory[] | string>();
  private readonly jurisdictions = new Map<string, Jurisdiction[]>();
  private readonly docContractors = new Map<string, string[]>();
  private readonly groups = new Map<string, Group>();
  // Per document, flat triples (code, system * 4 + relationship, category): ~40 bytes a link
  // where objects took ~150, and 490k links wait here until their document is read.
  private readonly codeLinks = new Map<string, Array<string | number | null>>();
  // What the maps above hold, in links (text counted by CHARS_PER_LINK): bounded by maxLinks.
  private held = 0;
  private readonly paragraphs = new Map<string, Group>();
  private readonly catalogue = new Map<
    string,
    { system: CodeSystem; code: string; text: string }
  >();
  private readonly catalogueSource = new Map<string, string>();
  private readonly proposed = new Set<string>();
  private readonly seenDocs = new Set<string>();
  private readonly policyIds = new Set<string>();
  private readonly lobs = new Map<string, { lob: LobCategory; state: StateCode | null }>();

  constructor(
    private readonly set: TableSet,
    private readonly sink: DatasetSink,
    private readonly options: McdImportOptions,
  ) {}

  async run(): Promise<McdImportReport> {
    this.checkTables();
    this.sink.addPayer(PAYER);
    this.options.progress?.("reading contractors and jurisdictions");
    await this.readLookups();
    this.options.progress?.("reading code lists");
    await this.readCodeLists();
    this.options.progress?.("reading LCDs");
    await this.readLcds();
    this.options.progress?.("reading articles");
    await this.readArticles();
    this.options.progress?.("reading NCDs");
    await this.readNcds();
    // Tables of their own; a table the import reads anyway went to its reader in that pass.
    for (const [name, onRow] of Object.entries(this.options.alsoRead ?? {}))
      if (!this.readTables.has(name)) await this.each(name, [], onRow);
    this.countOrphans();
    await this.readCodeSets();
    this.strictCheck();
    for (const lob of NATIONWIDE) this.lobs.set(`CMS_${lob}_US`, { lob, state: null });
    for (const [lob_id, { lob, state }] of [...this.lobs].sort(([a], [b]) => (a < b ? -1 : 1)))
      this.sink.addLob({ lob_id, payer_id: PAYER.payer_id, lob, state });
    for (const { system, code, text } of this.catalogue.values())
      this.sink.addCode({ code_system: system, code, description: text });
    this.options.progress?.("writing");
    this.report.written = await this.sink.finish({
      as_of: this.report.asOf,
      source:
        this.options.source ??
        `CMS Medicare Coverage Database export (${this.set.inputs.join(", ")})`,
    });
    return this.report;
  }

  // --- tables and rows ---------------------------------------------------------------------

  private has(name: string): boolean {
    return this.set.tables.has(name);
  }

  private checkTables(): void {
    const docs = ["lcd.csv", "article.csv", "ncd_trkg.csv"].filter((n) => this.has(n));
    if (docs.length === 0)
      throw new UsageError(
        `no lcd.csv, article.csv or ncd_trkg.csv in ${this.set.inputs.join(", ")}`,
        "Give the MCD export as downloaded (all_data.zip, current_lcd.zip, current_article.zip, ncd.zip, ...) or the folder it was extracted to.",
      );
    // A document table's links without the table: the export is incomplete (the import would
    // otherwise say "0 LCDs" and exit 0).
    for (const [kind, table] of [
      ["L", "lcd.csv"],
      ["A", "article.csv"],
    ] as const) {
      const linked = [
        kind === "L" ? "lcd_x_contractor.csv" : "article_x_contractor.csv",
        ...CODE_TABLES.filter((t) => t.doc === kind).flatMap((t) => [t.file, t.groups]),
      ].find((n) => this.has(n));
      if (linked && !this.has(table))
        throw new UsageError(
          `${table} is missing from ${this.set.inputs.join(", ")} (its tables such as ${linked} are there)`,
          "Give the whole export (the zip as downloaded, or every file of its folder).",
        );
    }
    const needed: string[] = [];
    if (this.has("lcd.csv") || this.has("article.csv"))
      needed.push(
        "contractor.csv",
        "contractor_jurisdiction.csv",
        "state_lookup.csv",
        "contractor_type_lookup.csv",
      );
    if (this.has("lcd.csv")) needed.push("lcd_x_contractor.csv");
    if (this.has("article.csv")) needed.push("article_x_contractor.csv");
    const missing = needed.find((n) => !this.has(n));
    if (missing)
      throw new UsageError(
        `${missing} is missing from ${this.set.inputs.join(", ")} (needed with ${docs.join(" and ")})`,
        "Give the whole export (the zip as downloaded, or every file of its folder).",
      );
    const optional = ["contractor_subtype_lookup.csv"];
    if (this.has("article.csv"))
      optional.push(
        ...CODE_TABLES.filter((t) => t.doc === "A" && t.kind !== "modifier").flatMap((t) => [
          t.file,
          t.groups,
        ]),
        "article_x_hcpc_modifier.csv",
      );
    this.report.missing = optional.filter((n) => !this.has(n));
  }

  private bad(bad: BadRow): void {
    this.firstBad ??= bad;
    const skipped = this.report.skipped;
    skipped.count++;
    const reason = bad.reason.replace(/'[^']*'/g, "'…'");
    bump(skipped.byReason, reason);
    if (skipped.examples.length < 5)
      skipped.examples.push(`${bad.file} line ${bad.line}: ${bad.reason}`);
  }

  /** With --strict, the first malformed row fails the import, named by file and line. */
  private strictCheck(): void {
    const bad = this.firstBad;
    if (this.options.strict && bad)
      throw new UsageError(
        `${bad.file} line ${bad.line}: ${bad.reason}`,
        "--strict stops at a malformed row: fix the file, or run without --strict to skip such rows (they are counted in the summary).",
      );
  }

  /** The tables read so far, by file name. */
  private readonly readTables = new Set<string>();

  private async each(
    name: string,
    required: readonly string[],
    onRow: (row: Row, file: string) => void | Promise<void>,
  ): Promise<void> {
    this.readTables.add(name);
    // A caller's reader of a table the import reads anyway (ncd_trkg's revision history) sees
    // its rows in the same pass.
    const also = this.options.alsoRead?.[name];
    const other = also && also !== onRow ? also : undefined;
    for (const source of this.set.tables.get(name) ?? []) {
      const signal = this.options.signal;
      await readTable(
        source,
        required,
        (row) => {
          if (signal?.aborted)
            throw new InterruptedError("import interrupted; nothing was written");
          other?.(row);
          return onRow(row, source.label);
        },
        (bad) => this.bad(bad),
      );
      this.strictCheck();
    }
  }

  private leftOut(reason: string, by = 1): void {
    if (by > 0) bump(this.report.leftOut, reason, by);
  }

  // --- lookups -------------------------------------------------------------------------------

  private async readLookups(): Promise<void> {
    const types = new Map<string, string>();
    const subtypes = new Map<string, string>();
    await this.each("state_lookup.csv", ["state_id", "state_abbrev"], (row, file) => {
      this.holdText(file, row.get("state_id"), row.get("state_abbrev"));
      this.states.set(row.get("state_id").trim(), row.get("state_abbrev").trim().toUpperCase());
    });
    await this.each(
      "contractor_type_lookup.csv",
      ["contractor_type_id", "description"],
      (row, file) => {
        this.holdText(file, row.get("contractor_type_id"), row.get("description"));
        types.set(row.get("contractor_type_id").trim(), row.get("description"));
      },
    );
    await this.each(
      "contractor_subtype_lookup.csv",
      ["contractor_subtype_id", "description"],
      (row, file) => {
        this.holdText(file, row.get("contractor_subtype_id"), row.get("description"));
        subtypes.set(row.get("contractor_subtype_id").trim(), row.get("description"));
      },
    );
    await this.each(
      "contractor.csv",
      ["contractor_id", "contractor_type_id", "contractor_version"],
      (row, file) => {
        const typeId = row.get("contractor_type_id").trim();
        const subtypeId = row.get("contractor_subtype_id").trim();
        const type = types.get(typeId);
        const subtype = subtypes.get(subtypeId);
        const who = `contractor ${row.get("contractor_number").trim() || row.get("contractor_id").trim()} (${row.get("contractor_bus_name").trim() || "no name"})`;
        let lobs: LobCategory[] | string;
        if (subtypeId && subtype === undefined)
          lobs = `${who} has contractor_subtype_id ${subtypeId}, which contractor_subtype_lookup.csv ${this.has("contractor_subtype_lookup.csv") ? "does not list" : "(missing from the export) cannot name"}`;
        else if (!subtypeId && type === undefined)
          lobs = `${who} has contractor_type_id ${typeId}, which contractor_type_lookup.csv does not list`;
        else
          try {
            lobs = lobsOfContractor(type ?? "", subtype ?? "");
          } catch (err) {
            if (!(err instanceof UnknownContractorKind)) throw err;
            lobs = `${who} is of the unknown ${err.message}: neither Part A nor Part B can be told from it`;
          }
        const key = contractorKey(row);
        this.holdText(file, key, typeof lobs === "string" ? lobs : "");
        this.contractorLobs.set(key, lobs);
      },
    );
    const seen = new Set<string>();
    await this.each(
      "contractor_jurisdiction.csv",
      ["contractor_id", "contractor_type_id", "contractor_version", "state_id", "term_date"],
      (row, file) => {
        const term = toDate(row.get("term_date"));
        if (term === undefined)
          return this.bad({ file, line: row.line, reason: "term_date is not a date" });
        const key = contractorKey(row);
        const state = row.get("state_id").trim();
        // The same lookup comes with the LCD and the article export: one row each.
        const id = `${key}|${state}|${term}`;
        if (seen.has(id)) return;
        this.holdText(file, id);
        seen.add(id);
        const list = this.jurisdictions.get(key) ?? [];
        list.push({ state, term });
        this.jurisdictions.set(key, list);
      },
    );
    for (const kind of ["L", "A"] as const) {
      const file = kind === "L" ? "lcd_x_contractor.csv" : "article_x_contractor.csv";
      await this.each(
        file,
        [...DOC_ID[kind], "contractor_id", "contractor_type_id", "contractor_version"],
        (row, file) => {
          const doc = docKey(kind, row);
          const list = this.docContractors.get(doc) ?? [];
          const contractor = contractorKey(row);
          if (!list.length) this.holdText(file, doc, "", 4);
          if (!list.includes(contractor)) {
            this.holdText(file, contractor);
            list.push(contractor);
          }
          this.docContractors.set(doc, list);
        },
      );
    }
  }

  // --- code lists ------------------------------------------------------------------------------

  private async readCodeLists(): Promise<void> {
    for (const table of CODE_TABLES) {
      await this.each(
        table.groups,
        [...DOC_ID[table.doc], table.group, "paragraph"],
        (row, file) => {
          const group = row.get(table.group).trim();
          const key = `${table.file}|${docKey(table.doc, row)}|${group}`;
          this.hold(1 + Math.ceil(key.length / CHARS_PER_LINK), file);
          this.groups.set(key, this.readParagraph(row.get("paragraph"), group, file));
        },
      );
    }
    for (const table of CODE_TABLES) {
      const withText = table.kind === "icd10-covered" || table.kind === "icd10-noncovered";
      await this.each(table.file, [...DOC_ID[table.doc], table.code, table.group], (row, file) => {
        const code = row.get(table.code).trim().toUpperCase();
        if (!code) return this.bad({ file, line: row.line, reason: `empty ${table.code}` });
        const doc = docKey(table.doc, row);
        const group = this.groups.get(`${table.file}|${doc}|${row.get(table.group).trim()}`);
        let system: CodeSystem;
        let relationship: DatasetCodeLink["relationship"];
        switch (table.kind) {
          case "procedure": {
            system = classifyProcedureCode(code);
            const rule = group ? exclusionOf(code, group.reading) : null;
            relationship = rule === null ? "COVERS" : "DOES_NOT_COVER";
            if (rule === 2) this.report.excluded.named++;
            else if (rule === 3) this.report.excluded.group++;
            break;
          }
          case "icd10-covered":
            system = "ICD10CM";
            relationship = "COVERS";
            break;
          case "icd10-noncovered":
            system = "ICD10CM";
            relationship = "DOES_NOT_COVER";
            break;
          case "modifier":
            system = classifyModifier(code);
            relationship = "REFERENCES";
            break;
        }
        const list = this.codeLinks.get(doc) ?? [];
        // A document's first link costs its list and key too (measured: ~4 links' worth).
        this.hold(list.length ? 1 : 4 + Math.ceil(doc.length / CHARS_PER_LINK), file);
        list.push(code, CODE_SYSTEMS.indexOf(system) * 4 + RELATIONSHIPS.indexOf(relationship));
        list.push(group ? quoteFor(group, table.kind === "procedure" ? code : undefined) : null);
        this.codeLinks.set(doc, list);
        // ICD-10-CM and HCPCS Level II descriptions are public (CMS/NCHS); the same column holds
        // the AMA's descriptor for a CPT code, which is never kept.
        const held = this.catalogue.size;
        if (withText) this.describe("ICD10CM", code, row.get("description").trim(), "export");
        else if (table.kind === "procedure" && system === "HCPCS")
          this.describe("HCPCS", code, row.get("long_description").trim(), "export");
        if (this.catalogue.size > held)
          this.hold(
            1 + Math.ceil(this.catalogue.get(codeKey(system, code))!.text.length / CHARS_PER_LINK),
            file,
          );
      });
    }
  }

  private get maxLinks(): number {
    return this.options.maxLinks ?? MAX_HELD_LINKS;
  }

  /** Counts what the import now holds; past the limit, refused naming the largest document. */
  private hold(links: number, file: string): void {
    this.held += links;
    if (this.held > this.maxLinks) this.tooManyLinks(file);
  }

  /** Rows kept for the whole import (lookups, ids seen): their text by its size, plus `extra`. */
  private holdText(file: string, a: string, b = "", extra = 1): void {
    this.hold(extra + Math.ceil((a.length + b.length) / CHARS_PER_LINK), file);
  }

  /** Code lists past the limit: refused naming the largest document and the flag. */
  private tooManyLinks(file: string): never {
    let doc = "";
    let most = 0;
    for (const [key, list] of this.codeLinks)
      if (list.length / 3 > most) [doc, most] = [key, list.length / 3];
    const [kind, id, version] = doc.split(":");
    const name = kind === "L" ? `LCD L${id}` : `article A${id}`;
    const largest = most
      ? ` (${name}, version ${version}, has ${most.toLocaleString("en-US")} of them)`
      : "";
    const limit = this.maxLinks.toLocaleString("en-US");
    if (!CODE_TABLES.some((t) => file.endsWith(t.file) || file.endsWith(t.groups)))
      throw new UsageError(
        `${file}: the export keeps more in memory than --max-links allows (${limit} code links' worth of documents, contractors and code lists)`,
        `The whole export needs some 700,000 (more is a zip bomb, or a damaged export). If it is right, raise the limit with --max-links N.`,
      );
    throw new UsageError(
      `${file}: the export's code lists hold more than ${limit} code links${largest}`,
      `The whole export has some 500,000 (more is a zip bomb, or a damaged export). If it is right, raise the limit with --max-links N (memory grows by ~100 bytes a link; descriptions and group paragraphs count ${CHARS_PER_LINK} characters as a link).`,
    );
  }

  /**
   * A group's paragraph, read once per distinct text and group number (lists repeat their
   * paragraphs; a paragraph may speak of "the codes in group N").
   */
  private readParagraph(html: string, number: string, file: string): Group {
    // Keyed by a digest: the text itself, kept as a key, would hold every distinct paragraph.
    const key = `${number}|${createHash("sha1").update(html).digest("base64")}`;
    let group = this.paragraphs.get(key);
    if (!group) {
      const lines = htmlToPlainLines(html);
      group = {
        category: toCategory(htmlToPlainText(html)),
        reading: readParagraph(lines, number),
        key: keySentences(lines, number, toCategory),
      };
      const { named, namedRanges, covered, coveredRanges } = group.reading;
      const codes = named.size + namedRanges.length + covered.size + coveredRanges.length;
      const text = (group.category?.length ?? 0) + group.key.chars;
      this.hold(2 + codes + Math.ceil(text / CHARS_PER_LINK), file);
      this.paragraphs.set(key, group);
    }
    return group;
  }

  private describe(system: CodeSystem, code: string, text: string, source: string): void {
    if (!text) return;
    const key = codeKey(system, code);
    if (source === "export" && this.catalogue.has(key)) return;
    const stored = system === "ICD10CM" ? dottedIcd10(code) : code;
    const previous = this.catalogueSource.get(key);
    if (previous) bump(this.report.codes, previous, -1);
    this.catalogue.set(key, { system, code: stored, text });
    this.catalogueSource.set(key, source);
    bump(this.report.codes, source);
  }

  private async readCodeSets(): Promise<void> {
    if (this.options.icd10cm) {
      this.options.progress?.("reading the ICD-10-CM order file");
      const codes = await readIcd10cmOrder(this.options.icd10cm);
      for (const c of codes) this.describe(c.code_system, c.code, c.description, "--icd10cm");
      if (codes.length === 0)
        this.report.unrecognised.push({ flag: "--icd10cm", file: this.options.icd10cm });
    }
    if (this.options.hcpcs) {
      this.options.progress?.("reading the HCPCS file");
      const codes = await readHcpcsAnweb(this.options.hcpcs);
      for (const c of codes) this.describe(c.code_system, c.code, c.description, "--hcpcs");
      if (codes.length === 0)
        this.report.unrecognised.push({ flag: "--hcpcs", file: this.options.hcpcs });
    }
  }

  // --- documents -------------------------------------------------------------------------------

  private noteUpdated(value: string): void {
    const date = toDate(value);
    if (date && (this.report.asOf === null || date > this.report.asOf)) this.report.asOf = date;
  }

  private async readLcds(): Promise<void> {
    const required = [
      "lcd_id",
      "lcd_version",
      "title",
      "status",
      "display_id",
      "orig_det_eff_date",
      "rev_eff_date",
      "rev_end_date",
      "ent_det_end_date",
      "date_retired",
      "last_updated",
      "indication",
      "coding_guidelines",
      "doc_reqs",
    ];
    await this.each("lcd.csv", required, (row, file) => {
      this.noteUpdated(row.get("last_updated"));
      const key = docKey("L", row);
      const id = row.get("lcd_id").trim();
      if (!/^\d+$/.test(id))
        return this.bad({ file, line: row.line, reason: "lcd_id is not a number" });
      return this.addDocument(row, file, {
        kind: "lcd",
        key,
        proposed: isProposed(row.get("status"), row.get("display_id"), "DL"),
        from: [row.get("rev_eff_date"), row.get("orig_det_eff_date")],
        fromColumns: "rev_eff_date/orig_det_eff_date",
        to: [row.get("date_retired"), row.get("rev_end_date"), row.get("ent_det_end_date")],
        number: `L${id}`,
        title: row.get("title"),
        source: "cms-lcd",
        fileUrl: `${MCD}/view/lcd.aspx?lcdid=${id}&ver=${row.get("lcd_version").trim()}`,
        summaryHtml: row.get("indication"),
        criteria: [
          { column: "indication", label: "" },
          { column: "coding_guidelines", label: "Coding Guidelines" },
          { column: "doc_reqs", label: "Documentation Requirements" },
        ],
        sections: LCD_SECTIONS,
      });
    });
  }

  private async readArticles(): Promise<void> {
    const required = [
      "article_id",
      "article_version",
      "title",
      "status",
      "display_id",
      "article_eff_date",
      "article_end_date",
      "article_rev_end_date",
      "date_retired",
      "last_updated",
      "description",
    ];
    await this.each("article.csv", required, (row, file) => {
      this.noteUpdated(row.get("last_updated"));
      const id = row.get("article_id").trim();
      if (!/^\d+$/.test(id))
        return this.bad({ file, line: row.line, reason: "article_id is not a number" });
      return this.addDocument(row, file, {
        kind: "article",
        key: docKey("A", row),
        proposed: isProposed(row.get("status"), row.get("display_id"), "DA"),
        from: [row.get("article_eff_date")],
        fromColumns: "article_eff_date",
        to: [row.get("date_retired"), row.get("article_end_date"), row.get("article_rev_end_date")],
        number: `A${id}`,
        title: row.get("title"),
        source: "cms-article",
        fileUrl: `${MCD}/view/article.aspx?articleid=${id}&ver=${row.get("article_version").trim()}`,
        summaryHtml: row.get("description"),
        criteria: [],
        sections: ARTICLE_SECTIONS,
      });
    });
  }

  private async readNcds(): Promise<void> {
    const required = [
      "ncd_id",
      "ncd_vrsn_num",
      "ncd_mnl_sect",
      "ncd_mnl_sect_title",
      "ncd_efctv_dt",
      "ncd_trmntn_dt",
      "itm_srvc_desc",
      "indctn_lmtn",
      "last_updt_tmstmp",
    ];
    await this.each("ncd_trkg.csv", required, (row, file) => {
      this.noteUpdated(row.get("last_updt_tmstmp"));
      const section = row.get("ncd_mnl_sect").trim();
      if (!section || section.includes("/"))
        return this.bad({ file, line: row.line, reason: "NCD_mnl_sect is empty or has a '/'" });
      const id = row.get("ncd_id").trim();
      const version = row.get("ncd_vrsn_num").trim();
      return this.addDocument(row, file, {
        kind: "ncd",
        key: `N:${id}:${version}`,
        proposed: false,
        from: [row.get("ncd_efctv_dt")],
        fromColumns: "NCD_efctv_dt",
        to: [row.get("ncd_trmntn_dt")],
        number: section,
        title: row.get("ncd_mnl_sect_title"),
        source: "cms-ncd",
        fileUrl: `${MCD}/view/ncd.aspx?ncdid=${id}&ncdver=${version}`,
        summaryHtml: row.get("itm_srvc_desc"),
        criteria: [{ column: "indctn_lmtn", label: "" }],
        sections: NCD_SECTIONS,
      });
    });
  }

  private async addDocument(row: Row, file: string, doc: DocumentRow): Promise<void> {
    const what = doc.kind === "lcd" ? "LCDs" : doc.kind === "article" ? "articles" : "NCDs";
    if (this.seenDocs.has(doc.key)) return this.leftOut(`${what} found twice (one kept)`);
    this.holdText(file, doc.key);
    this.seenDocs.add(doc.key);
    if (doc.proposed) {
      this.proposed.add(doc.key);
      return this.leftOut(`proposed ${what} (status P, or a draft id)`);
    }
    const status = doc.kind === "ncd" ? "A" : row.get("status").trim().toUpperCase();
    if (status !== "A" && status !== "R")
      return this.leftOut(`${what} of status '${status}' (only A and R are imported)`);
    const from = firstDate(doc.from);
    if (from === undefined || from === null)
      return this.bad({
        file,
        line: row.line,
        reason: `${doc.fromColumns}: ${from === null ? "no effective date" : "not a date"}`,
      });
    let to = firstDate(doc.to);
    if (to === undefined)
      return this.bad({ file, line: row.line, reason: "an end date is not a date" });
    if (to === null && status === "R") {
      to = toDate(row.get("last_updated")) ?? null;
      if (to === null)
        return this.bad({
          file,
          line: row.line,
          reason: "retired (status R) without an end date or last_updated",
        });
    }
    // mcd-import.md: an NCD row terminated before it took effect is the retirement notice of
    // that NCD; it is kept as a version in effect on no day, its summary saying so. A row whose
    // title says it is retired is one too, with or without a termination date (27 rows of the
    // export of 2026-02-15 have none), so a week that adds or drops the date changes no status.
    let retiredOn: string | undefined;
    let retiredByTitle = false;
    if (to !== null && to <= from) {
      if (doc.kind !== "ncd") return this.leftOut(`${what} that end on or before they start`);
      retiredOn = to;
      to = from;
    } else if (doc.kind === "ncd" && RETIRED_TITLE.test(row.get("ncd_mnl_sect_title"))) {
      retiredByTitle = true;
      to = from;
    }
    const policyId = `${doc.source}/${doc.number}/${from}`;
    if (this.policyIds.has(policyId))
      return this.leftOut(`${what} with the policy id of another version (one kept)`);
    this.holdText(file, policyId);
    this.policyIds.add(policyId);

    const markdown = new Map<string, string>();
    const md = (column: string) => {
      let text = markdown.get(column);
      if (text === undefined)
        markdown.set(column, (text = htmlToMarkdownInPieces(row.get(column))));
      return text;
    };
    const criteria = doc.criteria
      .map((s) => ({ label: s.label, text: md(s.column) }))
      .filter((s) => s.text)
      .map((s) => (s.label ? `## ${s.label}\n\n${s.text}` : s.text))
      .join("\n\n");
    const title = row.get(doc.kind === "ncd" ? "ncd_mnl_sect_title" : "title").trim() || doc.number;
    const policy: DatasetPolicy = {
      policy_id: policyId,
      policy_number: doc.number,
      title,
      effective_from_date: from,
      effective_to_date: to,
      file_url: doc.fileUrl,
      file_type: "html",
      listing_url: LISTING[doc.kind],
      summary: cutAtWord(
        `${retiredOn ? `Retired: coverage ended ${retiredOn}. ` : retiredByTitle ? RETIRED_BY_TITLE : ""}${htmlToPlainTextPrefix(doc.summaryHtml, 300)}`.trim(),
        300,
      ),
      criteria_text: criteria || null,
      applicability: this.applicability(doc, from, to),
      codes: this.takeCodes(doc.key),
    };
    const text = doc.sections
      .map((s) => ({ label: s.label, text: md(s.column) }))
      .filter((s) => s.text)
      .map((s) => `## ${s.label}\n\n${s.text}`);
    if (storesText(this.sink) && text.length) {
      const body = `# ${title} (${doc.number})\n\n${text.join("\n\n")}\n`;
      const name = `${doc.kind === "ncd" ? "NCD" : ""}${doc.number}-${from}.md`;
      policy.files = { text: await this.sink.storeText(name, body) };
    }
    this.sink.addPolicy(policy);
    this.report.documents[doc.kind]++;
    if (retiredOn) this.report.retiredNcds++;
    if (retiredByTitle) this.report.retiredNcdsByTitle++;
  }

  private applicability(doc: DocumentRow, from: string, to: string | null): DatasetLink[] {
    const ids =
      doc.kind === "ncd"
        ? NATIONWIDE.map((lob) => `CMS_${lob}_US`)
        : this.localLobIds(doc.key, from);
    return ids.map((lob_id) => ({ lob_id, from, to }));
  }

  /** A local document's LOB ids: its contractors' lines of business in their states. */
  private localLobIds(key: string, from: string): string[] {
    const ids = new Set<string>();
    for (const contractor of this.docContractors.get(key) ?? []) {
      const lobs = this.contractorLobs.get(contractor);
      if (!lobs) {
        this.leftOut("contractor links to a contractor missing from contractor.csv");
        continue;
      }
      if (typeof lobs === "string")
        throw new UsageError(
          `${lobs} (used by ${key.startsWith("L:") ? "LCD" : "article"} ${key.split(":")[1]})`,
          "The import maps the subtypes MAC A, HHH MAC (Part A), MAC B, DME MAC (Part B) and the A and B, Part A, Part B, DME, HHH, carrier and intermediary types; a new one needs a new version of coverage.",
        );
      for (const j of this.jurisdictions.get(contractor) ?? []) {
        if (j.term !== null && j.term <= from) continue;
        const state = this.states.get(j.state);
        if (!state || !STATES.has(state)) {
          this.leftOut(`jurisdictions in a state outside the spec's list (${state ?? j.state})`);
          continue;
        }
        for (const lob of lobs) {
          const id = `CMS_${lob}_${state}`;
          ids.add(id);
          this.lobs.set(id, { lob, state: state as StateCode });
        }
      }
    }
    this.docContractors.delete(key);
    return [...ids].sort();
  }

  private takeCodes(key: string): DatasetCodeLink[] {
    const flat = this.codeLinks.get(key) ?? [];
    this.codeLinks.delete(key);
    this.held -= flat.length / 3;
    const seen = new Set<string>();
    const links: DatasetCodeLink[] = [];
    for (let i = 0; i < flat.length; i += 3) {
      const [code, meta, category] = [
        flat[i] as string,
        flat[i + 1] as number,
        flat[i + 2] as string | null,
      ];
      const id = `${meta}|${code}|${category ?? ""}`;
      if (seen.has(id)) continue;
      seen.add(id);
      links.push({
        code_system: CODE_SYSTEMS[meta >> 2]!,
        code,
        relationship: RELATIONSHIPS[meta & 3]!,
        category,
      });
    }
    return links;
  }

  /** Links whose document was not imported: of a proposed one, or of none in the export. */
  private countOrphans(): void {
    for (const [key, flat] of this.codeLinks)
      this.leftOut(
        this.proposed.has(key)
          ? "code links of proposed documents"
          : "code links of documents not in the export (or left out)",
        flat.length / 3,
      );
    this.codeLinks.clear();
    this.paragraphs.clear();
  }
}

interface DocumentRow {
  kind: "lcd" | "article" | "ncd";
  key: string;
  proposed: boolean;
  from: string[];
  fromColumns: string;
  to: string[];
  number: string;
  title: string;
  source: string;
  fileUrl: string;
  summaryHtml: string;
  criteria: Section[];
  sections: Section[];
}

/**
 * A code link's category (mcd-import.md rule 6): its group's paragraph from the sentence that
 * names the code, else from the one declaring the group (else its first sentence of substance),
 * cut at 120 characters; null when the paragraph says nothing. `code` only for HCPCS/CPT lists.
 */
function quoteFor(group: Group, code: string | undefined): string | null {
  if (group.category === null) return null;
  return (
    (code === undefined ? undefined : group.key.naming(code)) ?? group.key.group ?? group.category
  );
}
