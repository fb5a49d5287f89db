// Writes an export in the layout CMS publishes for the Medicare Coverage Database (see
// shared/mcd-import.md): outer zips holding nested `<name>_csv.zip` files of Windows-1252 CSVs
// with the published headers, plus unknown extra columns, an Access file and a dictionary we
// ignore. Tables are given as rows (objects by column name); missing columns are written empty.
import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import iconv from "iconv-lite";
import yazl from "yazl";

export type Rows = Iterable<Record<string, string>>;
export type Tables = Partial<Record<string, Rows>>;

const split = (s: string) => s.split(", ");

/** The published headers (mcd-import.md), in file order. */
export const HEADERS: Record<string, string[]> = {
  "lcd.csv": split(
    "lcd_id, lcd_version, title, determination_number, orig_det_eff_date, ent_det_end_date, rev_eff_date, rev_end_date, indication, diagnoses_support, icd9_dont_support_para, icd9_dont_support_ast, diagnoses_dont_support, coding_guidelines, doc_reqs, appendices, util_guide, source_info, adv_meeting, comment_start_dt, comment_end_dt, notice_start_dt, rev_hist_num, history_exp, last_reviewed_on, status, last_updated, cms_cov_policy, display_id, draft_contact, revenue_para, thirty_percent, keywords, associated_info, notice_end_dt, date_retired, draft_released_date, source_lcd_id, add_icd10_info, icd10_doc, synopsis_changes, bibliography, summary_of_evidence, analysis_of_evidence, mcd_publish_date, issue, issue_change, mac_initiated",
  ),
  "article.csv": split(
    "article_id, article_version, article_type, title, article_pub_date, article_eff_date, article_end_date, description, other_comments, sad_url, status, last_updated, history_exp, key_article, icd9_covered_para, icd9_noncovered_para, revenue_para, thirty_percent, article_rev_end_date, source_article_id, date_retired, keywords, icd10_doc, add_icd10_info, cms_cov_policy, display_id, reference_article",
  ),
  "article_x_hcpc_code.csv": split(
    "article_id, article_version, hcpc_code_id, hcpc_code_version, hcpc_code_group, range, last_updated, long_description, short_description",
  ),
  "article_x_hcpc_code_group.csv": split(
    "article_id, article_version, hcpc_code_group, paragraph, last_updated",
  ),
  "lcd_x_hcpc_code.csv": split(
    "lcd_id, lcd_version, hcpc_code_id, hcpc_code_version, hcpc_code_group, range, last_updated, long_description, short_description",
  ),
  "lcd_x_hcpc_code_group.csv": split(
    "lcd_id, lcd_version, hcpc_code_group, paragraph, last_updated",
  ),
  "article_x_icd10_covered.csv": split(
    "article_id, article_version, icd10_code_id, icd10_code_version, icd10_covered_group, range, last_updated, sort_order, description, asterisk",
  ),
  "article_x_icd10_covered_group.csv": split(
    "article_id, article_version, icd10_covered_group, paragraph, last_updated, icd10_covered_ast",
  ),
  "article_x_icd10_noncovered.csv": split(
    "article_id, article_version, icd10_code_id, icd10_code_version, icd10_noncovered_group, range, last_updated, sort_order, description",
  ),
  "article_x_icd10_noncovered_group.csv": split(
    "article_id, article_version, icd10_noncovered_group, paragraph, last_updated",
  ),
  "article_x_hcpc_modifier.csv": split(
    "article_id, article_version, hcpc_modifier_code_id, hcpc_modifier_code_version, hcpc_modifier_group, last_updated, description",
  ),
  "lcd_x_contractor.csv": split(
    "lcd_id, lcd_version, contractor_id, contractor_type_id, contractor_version, last_updated",
  ),
  "article_x_contractor.csv": split(
    "article_id, article_version, article_type, contractor_id, contractor_type_id, contractor_version, last_updated",
  ),
  "contractor.csv": split(
    "contractor_id, contractor_type_id, contractor_version, contractor_bus_name, contractor_number, dmerc_rgn, address1, address2, address3, city, state_id, zipcode, phone, fax, status, last_updated, url, email, ignore, status_flag, cmd_name, cmd_title, contractor_subtype_id",
  ),
  "contractor_jurisdiction.csv": split(
    "contractor_id, contractor_type_id, contractor_version, state_id, last_updated, active_date, term_date",
  ),
  "contractor_type_lookup.csv": split("contractor_type_id, description"),
  "contractor_subtype_lookup.csv": split("contractor_subtype_id, description"),
  "state_lookup.csv": split("state_id, state_abbrev, description"),
  "article_related_documents.csv": split(
    "article_id, article_version, related_num, r_article_id, r_article_version, r_lcd_id, r_lcd_version, r_contractor_id, last_updated",
  ),
  "ncd_trkg.csv": split(
    "NCD_id, NCD_vrsn_num, natl_cvrg_type, cvrg_lvl_cd, NCD_mnl_sect, NCD_mnl_sect_title, NCD_efctv_dt, NCD_impltn_dt, NCD_trmntn_dt, itm_srvc_desc, indctn_lmtn, xref_txt, othr_txt, trnsmtl_num, trnsmtl_issnc_dt, trnsmtl_url, chg_rqst_num, pblctn_cd, rev_hstry, under_rvw, creatd_tmstmp, last_updt_tmstmp, last_clrnc_tmstmp, NCD_lab, ncd_keyword, NCD_AMA",
  ),
};

const LOOKUPS = [
  "contractor.csv",
  "contractor_jurisdiction.csv",
  "contractor_type_lookup.csv",
  "contractor_subtype_lookup.csv",
  "state_lookup.csv",
];

/** Which export each table belongs to (lookups come with both the LCD and the article one). */
function exportsOf(file: string): Array<"lcd" | "article" | "ncd"> {
  if (LOOKUPS.includes(file)) return ["lcd", "article"];
  if (file.startsWith("lcd")) return ["lcd"];
  if (file.startsWith("article")) return ["article"];
  return ["ncd"];
}

/** Headers as CMS writes them, with columns CMS may add: one in the middle, one at the end. */
function headerOf(file: string, drop: string[] = []): string[] {
  const header = (HEADERS[file] ?? []).filter((c) => !drop.includes(c));
  header.splice(2, 0, "cms_added_column");
  header.push("another_new_column");
  return header;
}

const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** A table as Windows-1252 CSV bytes, streamed a row at a time. */
function csvStream(file: string, rows: Rows, drop: string[] = []): Readable {
  const header = headerOf(file, drop);
  return Readable.from(
    (function* () {
      yield iconv.encode(header.join(",") + "\r\n", "win1252");
      let batch: string[] = [];
      for (const row of rows) {
        const lower = Object.fromEntries(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
        batch.push(
          header
            .map((c) =>
              c === "cms_added_column"
                ? "x"
                : c === "another_new_column"
                  ? ""
                  : quote(lower[c.toLowerCase()] ?? ""),
            )
            .join(","),
        );
        if (batch.length >= 2000) {
          yield iconv.encode(batch.join("\r\n") + "\r\n", "win1252");
          batch = [];
        }
      }
      if (batch.length) yield iconv.encode(batch.join("\r\n") + "\r\n", "win1252");
    })(),
  );
}

async function zipToBuffer(entries: Array<[string, Readable | Buffer]>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries)
    if (Buffer.isBuffer(data)) zip.addBuffer(data, name);
    else zip.addReadStream(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function zipToFile(file: string, entries: Array<[string, Buffer]>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

export type Layout =
  /** `all_data.zip` with `all_lcd/all_lcd_csv.zip`, `all_article/...`, `ncd/ncd_csv.zip`. */
  | "all_data"
  /** `all_lcd.zip`, `all_article.zip`, `ncd.zip`, each with its nested `_csv.zip`. */
  | "separate"
  /** The CSVs extracted into `all_lcd/`, `all_article/`, `ncd/` folders of `dir`. */
  | "folders";

/**
 * Writes the tables as an MCD export in `dir`; returns the paths to give the importer.
 * Table factories are called once per export they belong to (rows may be generated lazily).
 */
export async function writeMcdExport(
  dir: string,
  tables: Record<string, () => Rows>,
  layout: Layout = "all_data",
  /** Columns to leave out of a file's header (to test a missing column). */
  drop: Record<string, string[]> = {},
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const names = { lcd: "all_lcd", article: "all_article", ncd: "ncd" } as const;
  const kinds = (["lcd", "article", "ncd"] as const).filter((k) =>
    Object.keys(tables).some((f) => exportsOf(f).includes(k) && !LOOKUPS.includes(f)),
  );
  const filesOf = (kind: "lcd" | "article" | "ncd") =>
    Object.keys(tables).filter((f) => exportsOf(f).includes(kind));
  if (layout === "folders") {
    for (const kind of kinds) {
      const folder = path.join(dir, names[kind], `${names[kind]}_csv`);
      await mkdir(folder, { recursive: true });
      for (const file of filesOf(kind))
        await pipeline(
          csvStream(file, tables[file]!(), drop[file]),
          createWriteStream(path.join(folder, file)),
        );
    }
    return [dir];
  }
  const exports: Array<[string, Buffer]> = [];
  for (const kind of kinds) {
    const inner = await zipToBuffer(
      filesOf(kind).map((f) => [f, csvStream(f, tables[f]!(), drop[f])]),
    );
    exports.push([names[kind], inner]);
  }
  // What CMS puts beside the CSVs: an Access database and a dictionary, both ignored.
  const extras = (name: string): Array<[string, Buffer]> => [
    [`${name}.mdb`, Buffer.from("Standard Jet DB (stand-in)")],
    [`${name}_data_dictionary.txt`, Buffer.from("column descriptions (stand-in)")],
  ];
  if (layout === "all_data") {
    const file = path.join(dir, "all_data.zip");
    await zipToFile(
      file,
      exports.flatMap(([name, inner]) => [
        [`${name}/${name}_csv.zip`, inner] as [string, Buffer],
        ...extras(name).map(([n, b]) => [`${name}/${n}`, b] as [string, Buffer]),
      ]),
    );
    return [file];
  }
  const paths: string[] = [];
  for (const [name, inner] of exports) {
    const file = path.join(dir, `${name}.zip`);
    await zipToFile(file, [[`${name}_csv.zip`, inner], ...extras(name)]);
    paths.push(file);
  }
  return paths;
}

/** Writes a text file in Windows-1252 (the code set files). */
export async function writeLatin1(file: string, lines: string[]): Promise<void> {
  await writeFile(file, iconv.encode(lines.join("\r\n") + "\r\n", "win1252"));
}

/** A line of CMS's ICD-10-CM order file: order, code (no dot), header flag, short, long. */
export function icd10OrderLine(
  order: number,
  code: string,
  billable: boolean,
  long: string,
): string {
  const short = long.slice(0, 60);
  return `${String(order).padStart(5, "0")} ${code.replace(".", "").padEnd(7)} ${billable ? 1 : 0} ${short.padEnd(60)} ${long}`;
}

/** Lines of CMS's HCPCS ANWEB file for one code: record type 3 (7 for a modifier), then 4 (8). */
export function anwebLines(code: string, long: string, modifier = false): string[] {
  const parts: string[] = [];
  for (let rest = long; rest.length > 0;) {
    let cut = rest.length <= 80 ? rest.length : rest.lastIndexOf(" ", 80);
    if (cut <= 0) cut = 80;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  return parts.map((text, i) => {
    const type = modifier ? (i === 0 ? "7" : "8") : i === 0 ? "3" : "4";
    return `${code.padEnd(5)}${String((i + 1) * 100).padStart(5, "0")}${type}${text.padEnd(80)}${"short".padEnd(28)}`;
  });
}
