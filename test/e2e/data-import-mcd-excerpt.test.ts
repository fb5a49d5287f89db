// The MCD import on an excerpt in the real export's byte format (test/fixtures/mcd-excerpt: see
// its README for where each row comes from). Every expected value is read from the raw CSVs
// here, with csv-parse and iconv-lite directly and mcd-import.md's tables, never from the
// importer's own code.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import iconv from "iconv-lite";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { runInProcess, type CliRun } from "../helpers/run-cli.js";

const EXCERPT = path.join(ROOT, "test", "fixtures", "mcd-excerpt");
const out = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-excerpt-")), "medicare.json");
let imported: CliRun;

/** A raw table of the excerpt, decoded as CMS encodes it, keyed by lower-case column. */
function table(name: string): Array<Record<string, string>> {
  const text = iconv.decode(readFileSync(path.join(EXCERPT, name)), "win1252");
  const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v])),
  );
}
const day = (value: string) => value.slice(0, 10);

// mcd-import.md, "What the real export showed": subtype first, else type.
const BY_SUBTYPE: Record<string, string[]> = {
  "MAC A": ["medicare_part_a"],
  "HHH MAC": ["medicare_part_a"],
  "MAC B": ["medicare_part_b"],
  "DME MAC": ["medicare_part_b"],
};
const BY_TYPE: Record<string, string[]> = {
  "A and B MAC": ["medicare_part_a", "medicare_part_b"],
  "A and B and HHH MAC": ["medicare_part_a", "medicare_part_b"],
  "DME MAC": ["medicare_part_b"],
};

/** "STATE:lob" for each scope a local document should have, from the raw lookups. */
function expectedScopes(docFile: string, idColumn: string, id: string, from: string): string[] {
  const subtypes = new Map(
    table("contractor_subtype_lookup.csv").map((r) => [r.contractor_subtype_id, r.description!]),
  );
  const types = new Map(
    table("contractor_type_lookup.csv").map((r) => [r.contractor_type_id, r.description!]),
  );
  const states = new Map(table("state_lookup.csv").map((r) => [r.state_id, r.state_abbrev!]));
  const key = (r: Record<string, string>) =>
    `${r.contractor_id}|${r.contractor_type_id}|${r.contractor_version}`;
  const contractors = new Map(table("contractor.csv").map((r) => [key(r), r]));
  const out = new Set<string>();
  for (const link of table(docFile).filter((r) => r[idColumn] === id)) {
    const c = contractors.get(key(link))!;
    const lobs = c.contractor_subtype_id
      ? BY_SUBTYPE[subtypes.get(c.contractor_subtype_id)!]!
      : BY_TYPE[types.get(c.contractor_type_id!)!]!;
    for (const j of table("contractor_jurisdiction.csv").filter((r) => key(r) === key(link)))
      if (!j.term_date || day(j.term_date) > from)
        for (const lob of lobs) out.add(`${states.get(j.state_id)}:${lob}`);
  }
  return [...out].sort();
}

const cli = (args: string[]) => runInProcess(["--local", "--data", out, ...args]);

interface Detail {
  policy_id: string;
  effective_from_date: string;
  effective_to_date: string | null;
  summary: string | null;
  criteria_text: string | null;
  applicability: Array<{ lobs: string[]; state?: string | null }>;
  code_groups: Array<{
    code_system: string;
    relationship: string;
    category: string | null;
    codes: string[];
  }>;
}
async function policy(id: string): Promise<Detail> {
  const r = await cli(["policy", id, "--json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Detail;
}
const scopes = (d: Detail) =>
  d.applicability.flatMap((a) => a.lobs.map((l) => `${a.state ?? "US"}:${l}`)).sort();
/** Each code of a policy with its relationship. */
const relationships = (d: Detail) =>
  Object.fromEntries(d.code_groups.flatMap((g) => g.codes.map((c) => [c, g.relationship])));
async function searchIds(args: string[]): Promise<string[]> {
  const r = await cli(["search", "--json", "--limit", "100", ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { data: Array<{ policy_id: string }> }).data
    .map((p) => p.policy_id)
    .sort();
}

beforeAll(async () => {
  imported = await runInProcess(["data", "import", "mcd", EXCERPT, "-o", out]);
}, 120_000);

describe("the MCD import on the excerpt in the real export's format", () => {
  it("imports every document of the excerpt", () => {
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(
      new RegExp(
        `imported ${table("lcd.csv").length} LCDs, ${table("article.csv").length} articles, ${table("ncd_trkg.csv").length} NCDs`,
      ),
    );
  });

  it("keeps no CPT long description: the excerpt's long_description column is blank", () => {
    for (const file of ["article_x_hcpc_code.csv", "lcd_x_hcpc_code.csv"])
      for (const row of table(file)) expect(row.long_description).toBe("");
  });

  it.each([
    ["article_x_contractor.csv", "article_id", "56566", "cms-article/A56566"],
    ["article_x_contractor.csv", "article_id", "54095", "cms-article/A54095"],
    ["lcd_x_contractor.csv", "lcd_id", "33718", "cms-lcd/L33718"],
  ])(
    "%s %s %s: Part A or B by each contractor's subtype, in its own states",
    async (file, column, id, key) => {
      const d = await policy(key);
      expect(scopes(d)).toEqual(expectedScopes(file, column, id, d.effective_from_date));
    },
  );

  it("First Coast 09101 (MAC A) is Part A in FL; Noridian 01112 (MAC B) is Part B in NF only", async () => {
    const contractors = table("contractor.csv");
    const subtype = new Map(
      table("contractor_subtype_lookup.csv").map((r) => [r.contractor_subtype_id, r.description]),
    );
    expect(
      subtype.get(contractors.find((c) => c.contractor_number === "09101")!.contractor_subtype_id!),
    ).toBe("MAC A");
    expect(
      subtype.get(contractors.find((c) => c.contractor_number === "01112")!.contractor_subtype_id!),
    ).toBe("MAC B");
    expect(scopes(await policy("cms-article/A56566"))).toEqual([
      "FL:medicare_part_a",
      "FL:medicare_part_b",
    ]);
    const a54095 = scopes(await policy("cms-article/A54095"));
    expect(a54095).toContain("NF:medicare_part_b");
    expect(a54095).not.toContain("NF:medicare_part_a");
    expect(a54095).toContain("CA:medicare_part_a");
    expect(a54095).not.toContain("CA:medicare_part_b");
    // 01112's NV row ended before the article took effect.
    expect(a54095.filter((s) => s.startsWith("NV:"))).toEqual([]);
  });

  it("--state CA finds California's Part B under NF and SF", async () => {
    expect(
      await searchIds(["--state", "CA", "--lob", "medicare_part_b", "--payer", "CMS"]),
    ).toContain("cms-article/A54095/2024-07-01");
    expect(
      await searchIds([
        "--state",
        "CA",
        "--exact-state",
        "--lob",
        "medicare_part_b",
        "--lob-id",
        "CMS_medicare_part_b_CA",
      ]),
    ).not.toContain("cms-article/A54095/2024-07-01");
  });

  it("a retired NCD row is a retired version: its own id, in effect on no day, the summary says when it ended", async () => {
    const row = table("ncd_trkg.csv").find((r) => r.ncd_mnl_sect === "30.4")!;
    expect(day(row.ncd_trmntn_dt!) < day(row.ncd_efctv_dt!)).toBe(true);
    const id = `cms-ncd/30.4/${day(row.ncd_efctv_dt!)}`;
    const d = await policy("cms-ncd/30.4");
    expect(d.policy_id).toBe(id);
    expect(d.effective_to_date).toBe(d.effective_from_date);
    expect(d.summary?.startsWith(`Retired: coverage ended ${day(row.ncd_trmntn_dt!)}.`)).toBe(true);
    expect(await searchIds(["--retired"])).toContain(id);
    expect(await searchIds(["--retired", "--state", "CA"])).toContain(id);
    for (const window of [
      ["--effective-on", day(row.ncd_efctv_dt!)],
      ["--effective-on", day(row.ncd_trmntn_dt!)],
      ["--effective-start", "2020-01-01", "--effective-end", "2026-12-31"],
      ["--effective-start", "2020-01-01", "--effective-end", "2026-12-31", "--state", "CA"],
    ])
      expect(await searchIds(window), window.join(" ")).not.toContain(id);
  });

  it("NCD 190.10's HTML table is a markdown table with the raw table's cells", async () => {
    const html = table("ncd_trkg.csv").find((r) => r.ncd_mnl_sect === "190.10")!.indctn_lmtn!;
    const rows = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
      [...m[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, "").trim()),
    );
    const d = await policy("cms-ncd/190.10");
    const lines = d.criteria_text!.split("\n");
    for (const cells of rows)
      expect(
        lines.some(
          (l) =>
            cells.every((c) => l.includes(`| ${c}`) || l.includes(`**${c}**`)) && l.startsWith("|"),
        ),
      ).toBe(true);
    expect(lines).toContain("| --- | --- |");
  });

  it("L33718: a modifier legend excludes nothing (E0601 covered in the CPAP LCD)", async () => {
    const codes = table("lcd_x_hcpc_code.csv").map((r) => r.hcpc_code_id!);
    const paragraph = table("lcd_x_hcpc_code_group.csv")[0]!.paragraph!;
    expect(paragraph).toContain("not reasonable and necessary");
    const rel = relationships(await policy("cms-lcd/L33718"));
    for (const code of codes) expect(rel[code], code).toBe("COVERS");
  });

  it("A56566: the codes named status N are not covered, the rest of the group is", async () => {
    const groups = table("article_x_hcpc_code_group.csv").filter((r) => r.article_id === "56566");
    const named = [...groups[0]!.paragraph!.matchAll(/code (\w{5}) is status N/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(["97037", "G0295"]);
    const rel = relationships(await policy("cms-article/A56566"));
    for (const row of table("article_x_hcpc_code.csv").filter((r) => r.article_id === "56566"))
      expect(rel[row.hcpc_code_id!], row.hcpc_code_id).toBe(
        named.includes(row.hcpc_code_id!) ? "DOES_NOT_COVER" : "COVERS",
      );
  });

  it("A54095 group 7: a Non-Covered heading excludes the whole group", async () => {
    const rel = relationships(await policy("cms-article/A54095"));
    for (const row of table("article_x_hcpc_code.csv").filter((r) => r.article_id === "54095"))
      expect(rel[row.hcpc_code_id!], row.hcpc_code_id).toBe("DOES_NOT_COVER");
  });

  it("a <p>N/A</p> paragraph gives a null category", async () => {
    const na = table("article_x_hcpc_code_group.csv").find((r) => r.paragraph === "<p>N/A</p>")!;
    const codes = table("article_x_hcpc_code.csv")
      .filter((r) => r.article_id === na.article_id && r.hcpc_code_group === na.hcpc_code_group)
      .map((r) => r.hcpc_code_id);
    const d = await policy(`cms-article/A${na.article_id}`);
    for (const code of codes)
      expect(d.code_groups.find((g) => g.codes.includes(code!))?.category, code).toBeNull();
  });

  it("the summary counts the links each rule excluded", () => {
    // A56566: 2 named (rule 2); A54095: 95999 named, 2 by the heading (rule 3).
    expect(imported.stderr).toMatch(
      /3 HCPCS\/CPT links named in a not-covered sentence, 2 in a group declared not covered/,
    );
  });

  it("Windows-1252 text and bare line feeds inside quoted HTML are read as written", async () => {
    const d = await policy("cms-lcd/L33718");
    expect(d.criteria_text).toContain(
      "reasonable and necessary \u2013 the beneficiary\u2019s sleep test",
    );
    expect(d.criteria_text).toMatch(/^-\s+An apnea-hypopnea index/m);
  });
});
