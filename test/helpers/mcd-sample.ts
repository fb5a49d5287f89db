// A small MCD export that exercises every mapping rule of shared/mcd-import.md. All wording is
// ours (no AMA CPT descriptor anywhere); the codes are real code shapes only.
import type { Rows } from "./mcd-export.js";

/** Every character Windows-1252 puts at bytes 0x80-0x9F (0x81, 0x8D, 0x8F, 0x90, 0x9D are unused). */
export const CP1252_HIGH = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

const words = "Sample coverage wording written for the importer tests only".split(" ");
/** HTML over 128 KB: a list, then many paragraphs of our own words. */
export function bigHtml(label: string, minBytes = 140_000): string {
  const parts = [
    `<p>${label} applies when <strong>all</strong> of these hold:</p><ul><li>first condition is met</li><li>second condition &amp; its note</li></ul>`,
  ];
  for (let i = 0, size = parts[0]!.length; size < minBytes; i++) {
    const p = `<p>Paragraph ${i}: ${words.join(" ")} – line\r\nbreak inside, "quoted", and commas, too.</p>`;
    parts.push(p);
    size += p.length;
  }
  return parts.join("");
}

export const LONG_DESCRIPTION =
  "<p>This article explains billing for glucose monitoring supplies in the sample jurisdiction. " +
  "Suppliers must keep the order, the proof of delivery and the notes that show continued need. " +
  "Claims without the modifier are denied as not documented. The rest of this text only exists " +
  "to pass three hundred characters so that the summary gets cut at a word with an ellipsis.</p>";

export const LONG_PARAGRAPH =
  "<p>Group three: codes listed here apply only when the beneficiary   has\n documented   history " +
  "of the condition for at least six months and the record shows a face-to-face visit.</p>";

const lcd = (r: Record<string, string>) => ({ lcd_version: "1", status: "A", ...r });
const art = (r: Record<string, string>) => ({
  article_version: "1",
  status: "A",
  article_type: "1",
  ...r,
});

/** The tables of the sample export. */
export function sampleTables(): Record<string, () => Rows> {
  const t: Record<string, Rows> = {
    "state_lookup.csv": [
      ["1", "CA", "California"],
      ["2", "NF", "Northern California"],
      ["3", "SF", "Southern California"],
      ["4", "MO", "Missouri"],
      ["5", "EM", "Eastern Missouri"],
      ["6", "WM", "Western Missouri"],
      ["7", "TX", "Texas"],
      ["8", "NY", "New York"],
      ["9", "ZZ", "Outside the list"],
      ["10", "FL", "Florida"],
      ["11", "CNMI", "Northern Mariana Islands"],
    ].map(([state_id, state_abbrev, description]) => ({
      state_id,
      state_abbrev,
      description,
    })) as Rows,
    "contractor_type_lookup.csv": [
      { contractor_type_id: "1", description: "A and B MAC" },
      { contractor_type_id: "2", description: "DME MAC" },
      { contractor_type_id: "3", description: "A and B and HHH MAC" },
    ],
    "contractor_subtype_lookup.csv": [
      { contractor_subtype_id: "1", description: "MAC - Part A" },
      { contractor_subtype_id: "2", description: "MAC - Part B" },
      { contractor_subtype_id: "3", description: "DME MAC" },
      { contractor_subtype_id: "4", description: "HHH MAC" },
    ],
    "contractor.csv": [
      ["101", "1", "1", "2", "Coastal Part B Sample"],
      ["102", "1", "1", "1", "River Part A Sample"],
      ["103", "2", "1", "3", "Supply DME Sample"],
      ["104", "3", "1", "4", "Home Health Sample"],
      ["105", "1", "1", "", "Both Parts Sample"],
      ["105", "1", "2", "2", "Both Parts Sample, later version"],
      ["106", "1", "1", "", "Islands Sample"],
    ].map(([id, type, version, subtype, name]) => ({
      contractor_id: id!,
      contractor_type_id: type!,
      contractor_version: version!,
      contractor_subtype_id: subtype!,
      contractor_bus_name: name!,
      status: "A",
    })),
    "contractor_jurisdiction.csv": [
      // [contractor, type, version, state_id, active_date, term_date]
      ["101", "1", "1", "2", "2010-01-01 00:00:00", ""], // NF
      ["101", "1", "1", "3", "2010-01-01 00:00:00", "2020-01-01 00:00:00"], // SF, terminated
      ["102", "1", "1", "4", "2030-01-01 00:00:00", ""], // MO, active_date ignored
      ["102", "1", "1", "5", "2010-01-01 00:00:00", "2024-06-01 00:00:00"], // EM, ends on the LCD's from
      ["103", "2", "1", "7", "2010-01-01 00:00:00", ""], // TX
      ["103", "2", "1", "9", "2010-01-01 00:00:00", ""], // ZZ: not a spec state
      ["104", "3", "1", "10", "2010-01-01 00:00:00", "2025-03-01 00:00:00"], // FL, ends after from
      ["105", "1", "1", "8", "2010-01-01 00:00:00", ""], // NY
      ["105", "1", "2", "6", "2010-01-01 00:00:00", ""], // WM, the other version only
      ["106", "1", "1", "11", "2010-01-01 00:00:00", ""], // CNMI
    ].map(([id, type, version, state, active, term]) => ({
      contractor_id: id!,
      contractor_type_id: type!,
      contractor_version: version!,
      state_id: state!,
      active_date: active!,
      term_date: term!,
      last_updated: "2023-01-01 00:00:00",
    })),
    "lcd.csv": [
      lcd({
        lcd_id: "39001",
        lcd_version: "5",
        title: "Knee Braces – Sample Policy",
        orig_det_eff_date: "2019-10-01 00:00:00",
        rev_eff_date: "2024-06-01 00:00:00",
        indication: bigHtml("Knee bracing"),
        coding_guidelines:
          "<p>Bill one unit per knee.</p><ol><li>Use the side modifier</li><li>Keep the order</li></ol>",
        doc_reqs: "<p>The record must show the <em>fitting</em> date.</p>",
        summary_of_evidence: "<p>Evidence section text.</p>",
        last_updated: "2024-05-20 10:11:12.347",
        display_id: "L39001",
      }),
      lcd({
        lcd_id: "39002",
        lcd_version: "3",
        title: `Retired Sample With Every High Byte ${CP1252_HIGH}`,
        status: "R",
        orig_det_eff_date: "2021-03-01 00:00:00",
        date_retired: "2025-01-15 00:00:00",
        rev_end_date: "2025-02-01 00:00:00",
        ent_det_end_date: "2025-03-01 00:00:00",
        indication: "Plain text indication without markup.",
        last_updated: "2025-01-10 00:00:00",
      }),
      lcd({
        lcd_id: "39003",
        title: "Retired Sample Without End Date",
        status: "R",
        orig_det_eff_date: "2020-01-01 00:00:00",
        rev_eff_date: "2022-01-01 00:00:00",
        last_updated: "2025-04-30 08:00:00",
      }),
      lcd({
        lcd_id: "39004",
        title: "Proposed Sample",
        status: "P",
        display_id: "DL39004",
        orig_det_eff_date: "2025-09-01 00:00:00",
        last_updated: "2025-08-01 00:00:00",
      }),
      lcd({
        lcd_id: "39005",
        title: "Draft Id Sample",
        display_id: "DL39005",
        orig_det_eff_date: "2025-09-01 00:00:00",
        last_updated: "2025-02-01 00:00:00",
      }),
      lcd({
        lcd_id: "39006",
        lcd_version: "2",
        title: "Future End Sample",
        orig_det_eff_date: "2024-07-01 00:00:00",
        ent_det_end_date: "2027-01-01 00:00:00",
        last_updated: "2025-02-02 00:00:00",
      }),
      lcd({
        lcd_id: "39007",
        title: "Malformed Date Sample",
        rev_eff_date: "2024-13-45 00:00:00",
        last_updated: "2024-01-01 00:00:00",
      }),
    ],
    "lcd_x_contractor.csv": [
      ["39001", "5", "101", "1", "1"],
      ["39001", "5", "102", "1", "1"],
      ["39001", "5", "105", "1", "1"],
      ["39002", "3", "103", "2", "1"],
      ["39003", "1", "101", "1", "1"],
      ["39006", "2", "104", "3", "1"],
      ["39004", "1", "101", "1", "1"],
    ].map(([lcd_id, lcd_version, contractor_id, contractor_type_id, contractor_version]) => ({
      lcd_id: lcd_id!,
      lcd_version: lcd_version!,
      contractor_id: contractor_id!,
      contractor_type_id: contractor_type_id!,
      contractor_version: contractor_version!,
    })),
    "lcd_x_hcpc_code_group.csv": [
      {
        lcd_id: "39001",
        lcd_version: "5",
        hcpc_code_group: "1",
        paragraph: "<p>Braces covered when fitted</p>",
      },
      {
        lcd_id: "39001",
        lcd_version: "5",
        hcpc_code_group: "2",
        paragraph: "<p>The following are <b>NOT reasonable and necessary</b> for this use.</p>",
      },
    ],
    "lcd_x_hcpc_code.csv": [
      ["39001", "5", "L1833", "1"],
      ["39001", "5", "97760", "1"],
      ["39001", "5", "0042T", "1"],
      ["39001", "5", "1234F", "1"],
      ["39001", "5", "0001U", "1"],
      ["39001", "5", "97110", "2"],
      ["39001", "5", "L1851", "2"],
      ["39004", "1", "L1834", "1"],
    ].map(([lcd_id, lcd_version, hcpc_code_id, hcpc_code_group]) => ({
      lcd_id: lcd_id!,
      lcd_version: lcd_version!,
      hcpc_code_id: hcpc_code_id!,
      hcpc_code_group: hcpc_code_group!,
      // The export's column holds CMS's public text for a letter (HCPCS Level II) code and the
      // AMA's descriptor for a CPT code: only the first may be kept.
      long_description: /^[A-Z]/.test(hcpc_code_id!)
        ? `Orthosis ${hcpc_code_id} (export wording)`
        : "an MCD long description the importer must not keep",
      short_description: "short text",
    })),
    "article.csv": [
      art({
        article_id: "59001",
        article_version: "7",
        title: "Glucose Supplies – Billing Sample",
        article_eff_date: "2024-06-01 00:00:00",
        description: LONG_DESCRIPTION,
        other_comments: "<p>Other comments text.</p>",
        last_updated: "2025-06-30 12:00:00.5",
        display_id: "A59001",
      }),
      art({
        article_id: "59002",
        article_version: "2",
        title: "Retired Article Sample",
        status: "R",
        article_eff_date: "2023-01-01 00:00:00",
        article_end_date: "2024-12-31 00:00:00",
        article_rev_end_date: "2024-11-30 00:00:00",
        description: "<p>Short.</p>",
        last_updated: "2024-12-01 00:00:00",
      }),
      art({
        article_id: "59003",
        title: "Draft Article Sample",
        display_id: "DA59003",
        article_eff_date: "2025-05-01 00:00:00",
        last_updated: "2025-05-01 00:00:00",
      }),
      art({
        article_id: "59004",
        title: "Islands Article Sample",
        article_eff_date: "2024-02-01 00:00:00",
        last_updated: "2024-02-01 00:00:00",
      }),
    ],
    "article_x_contractor.csv": [
      ["59001", "7", "101", "1", "1"],
      ["59001", "7", "105", "1", "1"],
      ["59002", "2", "102", "1", "1"],
      ["59003", "1", "101", "1", "1"],
      ["59004", "1", "106", "1", "1"],
    ].map(
      ([article_id, article_version, contractor_id, contractor_type_id, contractor_version]) => ({
        article_id: article_id!,
        article_version: article_version!,
        article_type: "1",
        contractor_id: contractor_id!,
        contractor_type_id: contractor_type_id!,
        contractor_version: contractor_version!,
      }),
    ),
    "article_x_icd10_covered_group.csv": [
      {
        article_id: "59001",
        article_version: "7",
        icd10_covered_group: "1",
        paragraph: "<p>Covered for   diabetes\n care</p>",
      },
      {
        article_id: "59001",
        article_version: "7",
        icd10_covered_group: "2",
        paragraph: "<p>These diagnoses are not covered unless paired with group 1.</p>",
      },
      {
        article_id: "59001",
        article_version: "7",
        icd10_covered_group: "3",
        paragraph: LONG_PARAGRAPH,
      },
    ],
    "article_x_icd10_covered.csv": [
      ["E11.9", "1", "Diabetes type two, no complication (sample wording)"],
      ["E11.65", "1", "Diabetes type two with high sugar (sample wording)"],
      ["I10", "2", "High blood pressure (sample wording)"],
      ["M17.11", "3", "Knee wear, right side (sample wording)"],
      ["Z79.4", "4", "Insulin use, long term (sample wording)"],
      ["E11.9", "1", "Diabetes type two, no complication (sample wording)"],
    ].map(([icd10_code_id, icd10_covered_group, description], i) => ({
      article_id: "59001",
      article_version: "7",
      icd10_code_id: icd10_code_id!,
      icd10_covered_group: icd10_covered_group!,
      description: description!,
      sort_order: String(i),
    })),
    "article_x_icd10_noncovered_group.csv": [
      {
        article_id: "59001",
        article_version: "7",
        icd10_noncovered_group: "1",
        paragraph: "<p>Screening only</p>",
      },
    ],
    "article_x_icd10_noncovered.csv": [
      {
        article_id: "59001",
        article_version: "7",
        icd10_code_id: "Z00.00",
        icd10_noncovered_group: "1",
        description: "Routine exam (sample wording)",
      },
      {
        article_id: "59003",
        article_version: "1",
        icd10_code_id: "Z00.01",
        icd10_noncovered_group: "1",
        description: "Draft only (sample wording)",
      },
    ],
    "article_x_hcpc_code_group.csv": [
      {
        article_id: "59001",
        article_version: "7",
        hcpc_code_group: "1",
        paragraph: "<p>Supplies</p>",
      },
      {
        article_id: "59001",
        article_version: "7",
        hcpc_code_group: "2",
        paragraph: "<p>Non-covered lab tests</p>",
      },
    ],
    "article_x_hcpc_code.csv": [
      {
        article_id: "59001",
        article_version: "7",
        hcpc_code_id: "A4253",
        hcpc_code_group: "1",
        long_description: "Glucose test strips (export wording, replaced by --hcpcs)",
      },
      {
        article_id: "59001",
        article_version: "7",
        hcpc_code_id: "82947",
        hcpc_code_group: "2",
        long_description: "MCD long text not kept",
      },
      { article_id: "59001", article_version: "7", hcpc_code_id: "", hcpc_code_group: "1" },
    ],
    "article_x_hcpc_modifier.csv": [
      {
        article_id: "59001",
        article_version: "7",
        hcpc_modifier_code_id: "KX",
        hcpc_modifier_group: "1",
      },
      {
        article_id: "59001",
        article_version: "7",
        hcpc_modifier_code_id: "59",
        hcpc_modifier_group: "1",
      },
    ],
    "ncd_trkg.csv": [
      {
        NCD_id: "101",
        NCD_vrsn_num: "1",
        NCD_mnl_sect: "240.4",
        NCD_mnl_sect_title: "Sleep Breathing Devices (Sample)",
        NCD_efctv_dt: "2008-03-13 00:00:00",
        NCD_trmntn_dt: "2024-01-01 00:00:00",
        itm_srvc_desc: "<p>Devices that keep the airway open during sleep.</p>",
        indctn_lmtn:
          "<p>Covered when:</p><ul><li>a sleep test shows the need</li><li>the patient was taught to use it</li></ul>",
        last_updt_tmstmp: "2024-01-02 00:00:00",
      },
      {
        NCD_id: "101",
        NCD_vrsn_num: "2",
        NCD_mnl_sect: "240.4",
        NCD_mnl_sect_title: "Sleep Breathing Devices (Sample)",
        NCD_efctv_dt: "2024-01-01 00:00:00",
        itm_srvc_desc: "<p>Devices that keep the airway open during sleep, second version.</p>",
        indctn_lmtn: "<p>Second version criteria.</p>",
        last_updt_tmstmp: "2024-01-02 00:00:00",
      },
      {
        NCD_id: "202",
        NCD_vrsn_num: "1",
        NCD_mnl_sect: "20.4",
        NCD_mnl_sect_title: "Heart Device Sample",
        NCD_efctv_dt: "2015-05-01 00:00:00",
        itm_srvc_desc: "",
        indctn_lmtn: "",
        last_updt_tmstmp: "2015-05-01 00:00:00",
      },
    ],
  };
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, () => v]));
}
