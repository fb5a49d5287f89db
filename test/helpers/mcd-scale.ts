// An MCD export of the published size (mcd-import.md: 940 LCDs, 2,002 articles, 431,120
// covered and 45,352 non-covered ICD-10-CM links, 18,158 article and 2,396 LCD HCPCS/CPT
// links, 120 contractors, 357 NCD rows), with HTML text of realistic sizes (a few LCDs over
// 128 KB) and code set files of the published size, for `npm run bench`.
//
//   npx tsx test/helpers/mcd-scale.ts OUT_DIR [FACTOR]
import { mkdir } from "node:fs/promises";
import path from "node:path";
import {
  anwebLines,
  icd10OrderLine,
  writeLatin1,
  writeMcdExport,
  type Rows,
} from "./mcd-export.js";

/** A small deterministic generator (the same export every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS =
  "the beneficiary record shows a documented need for this item when ordered by the treating practitioner and the supplier keeps proof of delivery claims without these elements are denied as not reasonable and necessary coverage applies only within the limits stated below".split(
    " ",
  );

// Group paragraphs of LCD L33718's kind (mcd-import.md, "Which listed codes a paragraph excludes").
const LCD_GROUP_PARAGRAPHS = [
  "<p>The appearance of a code in this section does not necessarily indicate coverage.</p><p>HCPCS MODIFIERS:</p><p>GZ - Item or service expected to be denied as not reasonable and necessary</p><p>KX - Requirements specified in the medical policy have been met</p><p>HCPCS CODES:</p>",
  "<p>N/A</p>",
  "<p>Items listed here are covered when the criteria are met.</p>",
];

/** HTML of about `bytes` bytes: paragraphs, lists, a table, links, entities, Windows-1252 dashes. */
function html(rand: () => number, bytes: number): string {
  const out: string[] = [];
  let size = 0;
  const sentence = () => {
    const n = 8 + Math.floor(rand() * 20);
    const w: string[] = [];
    for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(rand() * WORDS.length)]!);
    return w.join(" ");
  };
  while (size < bytes) {
    const kind = rand();
    const part =
      kind < 0.6
        ? `<p>${sentence()} – <strong>${sentence()}</strong> &amp; ${sentence()}.</p>`
        : kind < 0.85
          ? `<ul><li>${sentence()}</li><li>${sentence()}</li><li><a href="https://www.cms.gov/x">${sentence()}</a></li></ul>`
          : kind < 0.95
            ? `<h3>${sentence()}</h3>`
            : `<table><tr><td>${sentence()}</td><td>${sentence()}</td></tr></table>`;
    out.push(part);
    size += part.length;
  }
  return out.join("\n");
}

const date = (rand: () => number, from = 2015, years = 10) =>
  `${from + Math.floor(rand() * years)}-${String(1 + Math.floor(rand() * 12)).padStart(2, "0")}-${String(1 + Math.floor(rand() * 28)).padStart(2, "0")} 00:00:00`;

/** The ICD-10-CM code pool (the real catalogue has ~74,000 billable codes). */
function icdCodes(count: number): string[] {
  const codes: string[] = [];
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (let i = 0; codes.length < count; i++) {
    const cat = `${letters[i % 26]}${String(Math.floor(i / 26) % 100).padStart(2, "0")}`;
    const sub = Math.floor(i / 2600);
    codes.push(`${cat}.${sub.toString(36).toUpperCase().padStart(2, "0")}`);
  }
  return codes;
}

const hcpcsCode = (i: number) => `${"ABEGJKLQ"[i % 8]}${String(i % 10000).padStart(4, "0")}`;
const cptCode = (i: number) => String(10000 + (i % 89999));

/** Scaled tables: factor 1 is the published size. */
export function scaleTables(factor = 1): Record<string, () => Rows> {
  const n = (count: number) => Math.max(1, Math.round(count * factor));
  const LCDS = n(940);
  const ARTICLES = n(2002);
  const CONTRACTORS = 120;
  const NCDS = n(357);
  const ICD = icdCodes(72_000);
  const states = [
    "AL",
    "AK",
    "AZ",
    "AR",
    "CA",
    "CO",
    "CT",
    "DE",
    "FL",
    "GA",
    "NF",
    "SF",
    "EM",
    "WM",
    "MO",
    "TX",
    "NY",
    "DN",
    "QN",
    "UN",
    "CNMI",
    "PR",
    "VI",
    "GU",
  ];

  const perDoc = (
    rand: () => number,
    docs: number,
    total: number,
    row: (doc: number, k: number) => Record<string, string>,
  ) =>
    function* () {
      // Uneven lists, like the real ones: a few long, most short.
      const weights = Array.from({ length: docs }, () => rand() ** 3);
      const sum = weights.reduce((a, b) => a + b, 0);
      let left = total;
      for (let d = 0; d < docs && left > 0; d++) {
        const count =
          d === docs - 1 ? left : Math.min(left, Math.round((weights[d]! / sum) * total));
        for (let k = 0; k < count; k++) yield row(d, k);
        left -= count;
      }
    };

  return {
    "state_lookup.csv": () =>
      states.map((s, i) => ({
        state_id: String(i + 1),
        state_abbrev: s,
        description: `State ${s}`,
      })),
    "contractor_type_lookup.csv": () => [
      { contractor_type_id: "1", description: "A and B MAC" },
      { contractor_type_id: "2", description: "DME MAC" },
      { contractor_type_id: "3", description: "A and B and HHH MAC" },
    ],
    "contractor_subtype_lookup.csv": () =>
      ["MAC A", "MAC B", "DME MAC", "HHH MAC"].map((description, i) => ({
        contractor_subtype_id: String(i + 1),
        description,
      })),
    "contractor.csv": () =>
      Array.from({ length: CONTRACTORS }, (_, i) => ({
        contractor_id: String(1000 + i),
        contractor_type_id: String(1 + (i % 3)),
        contractor_version: "1",
        contractor_subtype_id: i % 5 === 0 ? "" : String(1 + (i % 4)),
        contractor_bus_name: `Contractor ${i}`,
      })),
    "contractor_jurisdiction.csv": function* () {
      const rand = random(7);
      for (let i = 0; i < CONTRACTORS; i++)
        for (let k = 0; k < 4; k++)
          yield {
            contractor_id: String(1000 + i),
            contractor_type_id: String(1 + (i % 3)),
            contractor_version: "1",
            state_id: String(1 + Math.floor(rand() * states.length)),
            active_date: "2010-01-01 00:00:00",
            term_date: rand() < 0.1 ? date(rand, 2012, 14) : "",
          };
    },
    "lcd.csv": function* () {
      const rand = random(1);
      for (let i = 0; i < LCDS; i++) {
        const status = i % 40 === 0 ? "P" : i % 7 === 0 ? "R" : "A";
        yield {
          lcd_id: String(30000 + i),
          lcd_version: String(1 + (i % 9)),
          title: `Local coverage sample ${i} – ${WORDS[i % WORDS.length]}`,
          orig_det_eff_date: date(rand, 2015, 5),
          rev_eff_date: date(rand, 2020, 6),
          date_retired: status === "R" ? date(rand, 2026, 1) : "",
          status,
          display_id: status === "P" ? `DL${30000 + i}` : `L${30000 + i}`,
          // Most indications are a few KB; every 50th is over 128 KB.
          indication: html(rand, i % 50 === 0 ? 140_000 : 4_000 + rand() * 16_000),
          coding_guidelines: html(rand, 1_000 + rand() * 3_000),
          doc_reqs: html(rand, 500 + rand() * 2_000),
          summary_of_evidence: html(rand, rand() * 6_000),
          analysis_of_evidence: html(rand, rand() * 3_000),
          bibliography: html(rand, rand() * 3_000),
          last_updated: `${date(rand, 2024, 2).slice(0, 10)} 10:00:00.123`,
        };
      }
    },
    "lcd_x_contractor.csv": function* () {
      for (let i = 0; i < LCDS; i++)
        for (let k = 0; k < 2; k++) {
          const c = (i * 7 + k * 13) % CONTRACTORS;
          yield {
            lcd_id: String(30000 + i),
            lcd_version: String(1 + (i % 9)),
            contractor_id: String(1000 + c),
            contractor_type_id: String(1 + (c % 3)),
            contractor_version: "1",
          };
        }
    },
    "lcd_x_hcpc_code_group.csv": function* () {
      for (let i = 0; i < LCDS; i += 4)
        yield {
          lcd_id: String(30000 + i),
          lcd_version: String(1 + (i % 9)),
          hcpc_code_group: "1",
          // As the real export's: a modifier legend (excludes nothing), a placeholder, prose.
          paragraph: LCD_GROUP_PARAGRAPHS[(i / 4) % LCD_GROUP_PARAGRAPHS.length]!,
        };
    },
    "lcd_x_hcpc_code.csv": perDoc(random(3), Math.ceil(LCDS / 4), n(2396), (d, k) => ({
      lcd_id: String(30000 + d * 4),
      lcd_version: String(1 + ((d * 4) % 9)),
      hcpc_code_id: hcpcsCode(d * 31 + k),
      hcpc_code_group: "1",
    })),
    "article.csv": function* () {
      const rand = random(2);
      for (let i = 0; i < ARTICLES; i++) {
        const status = i % 50 === 0 ? "P" : i % 9 === 0 ? "R" : "A";
        yield {
          article_id: String(50000 + i),
          article_version: String(1 + (i % 5)),
          article_type: "1",
          title: `Billing and coding sample ${i}`,
          article_eff_date: date(rand, 2019, 7),
          article_end_date: status === "R" ? date(rand, 2026, 1) : "",
          description: html(rand, 2_000 + rand() * 8_000),
          other_comments: html(rand, rand() * 1_000),
          status,
          display_id: status === "P" ? `DA${50000 + i}` : `A${50000 + i}`,
          last_updated: `${date(rand, 2024, 2).slice(0, 10)} 10:00:00`,
        };
      }
    },
    "article_x_contractor.csv": function* () {
      for (let i = 0; i < ARTICLES; i++)
        for (let k = 0; k < 2; k++) {
          const c = (i * 11 + k * 17) % CONTRACTORS;
          yield {
            article_id: String(50000 + i),
            article_version: String(1 + (i % 5)),
            article_type: "1",
            contractor_id: String(1000 + c),
            contractor_type_id: String(1 + (c % 3)),
            contractor_version: "1",
          };
        }
    },
    "article_x_icd10_covered_group.csv": function* () {
      for (let i = 0; i < ARTICLES; i++)
        for (let g = 1; g <= 3; g++)
          yield {
            article_id: String(50000 + i),
            article_version: String(1 + (i % 5)),
            icd10_covered_group: String(g),
            paragraph: `<p>Group ${g}: diagnoses that support the need when the record shows the condition.</p>`,
          };
    },
    "article_x_icd10_covered.csv": perDoc(random(4), ARTICLES, n(431_120), (d, k) => ({
      article_id: String(50000 + d),
      article_version: String(1 + (d % 5)),
      icd10_code_id: ICD[(d * 997 + k) % ICD.length]!,
      icd10_covered_group: String(1 + (k % 3)),
      description: `Sample diagnosis ${(d * 997 + k) % ICD.length}`,
      sort_order: String(k),
    })),
    "article_x_icd10_noncovered_group.csv": function* () {
      for (let i = 0; i < ARTICLES; i += 3)
        yield {
          article_id: String(50000 + i),
          article_version: String(1 + (i % 5)),
          icd10_noncovered_group: "1",
          paragraph: "<p>Diagnoses that do not support the need.</p>",
        };
    },
    "article_x_icd10_noncovered.csv": perDoc(
      random(5),
      Math.ceil(ARTICLES / 3),
      n(45_352),
      (d, k) => ({
        article_id: String(50000 + d * 3),
        article_version: String(1 + ((d * 3) % 5)),
        icd10_code_id: ICD[(d * 541 + k) % ICD.length]!,
        icd10_noncovered_group: "1",
        description: `Sample diagnosis ${(d * 541 + k) % ICD.length}`,
      }),
    ),
    "article_x_hcpc_code_group.csv": function* () {
      for (let i = 0; i < ARTICLES; i++) {
        yield {
          article_id: String(50000 + i),
          article_version: String(1 + (i % 5)),
          hcpc_code_group: "1",
          paragraph: "<p>Codes billed for this service.</p>",
        };
        yield {
          article_id: String(50000 + i),
          article_version: String(1 + (i % 5)),
          hcpc_code_group: "2",
          // A heading and a sentence declaring the whole group not covered (the paragraph rule's step 3).
          paragraph:
            "<p><strong>Non-Covered Services</strong></p><p>The following codes are not covered.</p>",
        };
      }
    },
    "article_x_hcpc_code.csv": perDoc(random(6), ARTICLES, n(18_158), (d, k) => ({
      article_id: String(50000 + d),
      article_version: String(1 + (d % 5)),
      hcpc_code_id: k % 2 ? cptCode(d * 13 + k) : hcpcsCode(d * 13 + k),
      hcpc_code_group: String(1 + (k % 5 === 4 ? 1 : 0)),
    })),
    "article_x_hcpc_modifier.csv": function* () {
      for (let i = 0; i < ARTICLES; i += 2) {
        yield {
          article_id: String(50000 + i),
          article_version: String(1 + (i % 5)),
          hcpc_modifier_code_id: "KX",
          hcpc_modifier_group: "1",
        };
        yield {
          article_id: String(50000 + i),
          article_version: String(1 + (i % 5)),
          hcpc_modifier_code_id: "59",
          hcpc_modifier_group: "1",
        };
      }
    },
    "ncd_trkg.csv": function* () {
      const rand = random(8);
      for (let i = 0; i < NCDS; i++)
        yield {
          NCD_id: String(100 + Math.floor(i / 2)),
          NCD_vrsn_num: String(1 + (i % 2)),
          NCD_mnl_sect: `${10 + Math.floor(i / 20)}.${Math.floor(i / 2) % 10}`,
          NCD_mnl_sect_title: `National coverage sample ${i}`,
          NCD_efctv_dt: i % 2 ? "2020-01-01 00:00:00" : "2005-01-01 00:00:00",
          NCD_trmntn_dt: i % 2 ? "" : "2020-01-01 00:00:00",
          itm_srvc_desc: html(rand, 500 + rand() * 3_000),
          indctn_lmtn: html(rand, 2_000 + rand() * 12_000),
          last_updt_tmstmp: `${date(rand, 2020, 5).slice(0, 10)} 00:00:00`,
        };
    },
  };
}

/** Writes the scaled export and code set files; returns the import's arguments. */
export async function writeScaleExport(dir: string, factor = 1): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const [zip] = await writeMcdExport(dir, scaleTables(factor), "all_data");
  const icd = icdCodes(72_000).map((c, i) =>
    icd10OrderLine(i + 1, c, true, `Sample diagnosis ${i}, described at length for the catalogue`),
  );
  await writeLatin1(path.join(dir, "icd10cm_order_2026.txt"), icd);
  const hcpcs: string[] = [];
  for (let i = 0; i < 8_000; i++)
    hcpcs.push(
      ...anwebLines(hcpcsCode(i), `Sample supply or service ${i} `.repeat(1 + (i % 5)).trim()),
    );
  await writeLatin1(path.join(dir, "HCPC2026_JAN_ANWEB.txt"), hcpcs);
  return [
    zip!,
    "--icd10cm",
    path.join(dir, "icd10cm_order_2026.txt"),
    "--hcpcs",
    path.join(dir, "HCPC2026_JAN_ANWEB.txt"),
  ];
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const [dir, factor] = process.argv.slice(2);
  if (!dir) throw new Error("usage: tsx test/helpers/mcd-scale.ts OUT_DIR [FACTOR]");
  console.log(JSON.stringify(await writeScaleExport(dir, Number(factor ?? 1))));
}
