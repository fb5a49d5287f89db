// `coverage data import mcd` end to end: a generated export in the published layout is imported
// by the built CLI, then queried with `coverage --data OUT.json ...`. One test per mapping rule
// of shared/mcd-import.md.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCoverage } from "../helpers/cli.js";
import { runInProcess, type CliRun } from "../helpers/run-cli.js";
import { anwebLines, icd10OrderLine, writeLatin1, writeMcdExport } from "../helpers/mcd-export.js";
import { CP1252_HIGH, sampleTables } from "../helpers/mcd-sample.js";
import { scaleTables } from "../helpers/mcd-scale.js";
import { SQLITE } from "../helpers/snapshot.js";

interface Detail {
  policy_id: string;
  policy_number: string;
  title: string;
  effective_from_date: string;
  effective_to_date: string | null;
  file_url: string;
  file_type: string;
  listing_url: string;
  summary: string | null;
  criteria_text: string | null;
  applicability: Array<{ lobs: string[]; state?: string | null; payer_ids: string[] }>;
  code_groups: Array<{
    code_system: string;
    relationship: string;
    category: string | null;
    codes: string[];
    descriptions?: string[];
  }>;
}

const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-mcd-"));
const out = path.join(dir, "medicare.json");
let zip: string;
let imported: CliRun;
const details = new Map<string, Detail>();

const cli = (args: string[]) =>
  runInProcess(["--local", "--data", out, ...args], { env: { NO_COLOR: "1" } });

async function policy(id: string): Promise<Detail> {
  let d = details.get(id);
  if (!d) {
    const r = await cli(["policy", id, "--json"]);
    expect(r.stderr, `policy ${id}`).toBe("");
    d = JSON.parse(r.stdout) as Detail;
    details.set(id, d);
  }
  return d;
}

async function searchIds(args: string[]): Promise<string[]> {
  const r = await cli(["search", "--json", "--limit", "100", ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { data: Array<{ policy_id: string }> }).data
    .map((p) => p.policy_id)
    .sort();
}

/** "STATE:lob" for each state and LOB category a policy applies to. */
const scopes = (d: Detail) =>
  d.applicability.flatMap((a) => a.lobs.map((l) => `${a.state ?? "US"}:${l}`)).sort();

const group = (d: Detail, system: string, relationship: string, category: string | null) =>
  d.code_groups.find(
    (g) => g.code_system === system && g.relationship === relationship && g.category === category,
  );

beforeAll(async () => {
  [zip] = (await writeMcdExport(path.join(dir, "export"), sampleTables(), "all_data")) as [string];
  await writeLatin1(path.join(dir, "icd10cm_order_2026.txt"), [
    icd10OrderLine(1, "E11", false, "Diabetes type two (order file header)"),
    icd10OrderLine(2, "E119", true, "Diabetes type two without complication (order file)"),
    icd10OrderLine(3, "E1165", true, "Diabetes type two with high glucose (order file)"),
  ]);
  await writeLatin1(path.join(dir, "HCPC2026_JAN_ANWEB.txt"), [
    ...anwebLines(
      "L1833",
      "Knee brace, adjustable joints, bought ready to wear, fitted and adjusted by an expert, sample wording for the tests",
    ),
    ...anwebLines("A4253", "Test strips for a glucose meter, per fifty (sample wording)"),
    ...anwebLines("97760", "A CPT-shaped line that must never be imported"),
    ...anwebLines("KX", "Requirements in the policy have been met (sample wording)", true),
  ]);
  imported = await runInProcess([
    "data",
    "import",
    "mcd",
    zip,
    "-o",
    out,
    "--icd10cm",
    path.join(dir, "icd10cm_order_2026.txt"),
    "--hcpcs",
    path.join(dir, "HCPC2026_JAN_ANWEB.txt"),
  ]);
}, 120_000);

describe("coverage data import mcd (e2e)", () => {
  it("writes the dataset and a summary on stderr: documents, links, codes, skipped rows and why", () => {
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toBe("");
    const s = imported.stderr;
    expect(s).toContain("imported 4 LCDs, 3 articles, 3 NCDs (10 policy versions)");
    expect(s).toMatch(/links: \d+ applicability \(11 LOBs\), 17 code links/);
    expect(s).toContain("proposed LCDs (status P, or a draft id): 2");
    expect(s).toContain("proposed articles (status P, or a draft id): 1");
    expect(s).toContain("jurisdictions in a state outside the spec's list (ZZ)");
    expect(s).toContain("skipped 2 malformed rows");
    expect(s).toMatch(/lcd\.csv line \d+: rev_eff_date\/orig_det_eff_date: not a date/);
    expect(s).toMatch(/article_x_hcpc_code\.csv line 4: empty hcpc_code_id/);
    // Nothing but the dataset and its text files is left beside it.
    expect(readdirSync(dir).sort()).toEqual([
      "HCPC2026_JAN_ANWEB.txt",
      "export",
      "icd10cm_order_2026.txt",
      "medicare.files",
      "medicare.json",
    ]);
  });

  it("imports approved and retired LCDs and articles and every NCD row; proposed, draft and malformed rows are left out", async () => {
    expect(await searchIds([])).toEqual([
      "cms-article/A59001/2024-06-01",
      "cms-article/A59002/2023-01-01",
      "cms-article/A59004/2024-02-01",
      "cms-lcd/L39001/2024-06-01",
      "cms-lcd/L39002/2021-03-01",
      "cms-lcd/L39003/2022-01-01",
      "cms-lcd/L39006/2024-07-01",
      "cms-ncd/20.4/2015-05-01",
      "cms-ncd/240.4/2008-03-13",
      "cms-ncd/240.4/2024-01-01",
    ]);
    const payers = await cli(["payers", "--json"]);
    expect(JSON.parse(payers.stdout).data).toEqual([
      { payer_id: "CMS", display_name: "Medicare (CMS)" },
    ]);
  });

  it("maps an LCD: id, number, title (Windows-1252 decoded), dates, links and file type", async () => {
    const d = await policy("cms-lcd/L39001/2024-06-01");
    expect(d).toMatchObject({
      policy_number: "L39001",
      title: "Knee Braces – Sample Policy",
      effective_from_date: "2024-06-01",
      effective_to_date: null,
      file_url: "https://www.cms.gov/medicare-coverage-database/view/lcd.aspx?lcdid=39001&ver=5",
      file_type: "html",
      listing_url:
        "https://www.cms.gov/medicare-coverage-database/reports/local-coverage-final-lcds-state-report.aspx",
    });
  });

  it("decodes every Windows-1252 byte 0x80-0x9F", async () => {
    const d = await policy("cms-lcd/L39002/2021-03-01");
    expect(d.title).toBe(`Retired Sample With Every High Byte ${CP1252_HIGH}`);
  });

  it("LCD dates: from falls back to orig_det_eff_date; date_retired comes before rev_end_date and ent_det_end_date", async () => {
    const d = await policy("cms-lcd/L39002/2021-03-01");
    expect([d.effective_from_date, d.effective_to_date]).toEqual(["2021-03-01", "2025-01-15"]);
  });

  it("a retired (R) row without any end date ends on its last_updated date", async () => {
    const d = await policy("cms-lcd/L39003/2022-01-01");
    expect(d.effective_to_date).toBe("2025-04-30");
  });

  it("article dates: to is article_end_date before article_rev_end_date", async () => {
    const d = await policy("cms-article/A59002/2023-01-01");
    expect(d).toMatchObject({
      policy_number: "A59002",
      effective_to_date: "2024-12-31",
      file_url:
        "https://www.cms.gov/medicare-coverage-database/view/article.aspx?articleid=59002&ver=2",
    });
  });

  it("a future end date makes the version retired while its links count until that day", async () => {
    const ncds = ["cms-ncd/20.4/2015-05-01", "cms-ncd/240.4/2024-01-01"];
    expect(await searchIds(["--state", "FL"])).toEqual(["cms-lcd/L39006/2024-07-01", ...ncds]);
    expect(await searchIds(["--state", "FL", "--no-retired"])).toEqual(ncds);
    const d = await policy("cms-lcd/L39006/2024-07-01");
    expect(d.effective_to_date).toBe("2027-01-01");
  });

  it("every ncd_trkg row is a version: number and title from the manual section, nationwide Parts A and B", async () => {
    const v1 = await policy("cms-ncd/240.4/2008-03-13");
    const v2 = await policy("cms-ncd/240.4/2024-01-01");
    expect(v1).toMatchObject({
      policy_number: "240.4",
      title: "Sleep Breathing Devices (Sample)",
      effective_to_date: "2024-01-01",
      file_url: "https://www.cms.gov/medicare-coverage-database/view/ncd.aspx?ncdid=101&ncdver=1",
    });
    expect(v2.effective_to_date).toBeNull();
    expect(scopes(v2)).toEqual(["US:medicare_part_a", "US:medicare_part_b"]);
    expect(v2.criteria_text).toBe("Second version criteria.");
  });

  it("criteria_text: the indication (HTML lists as markdown lists), then ## Coding Guidelines and ## Documentation Requirements", async () => {
    const d = await policy("cms-lcd/L39001/2024-06-01");
    const c = d.criteria_text!;
    expect(
      c.startsWith(
        "Knee bracing applies when **all** of these hold:\n\n-   first condition is met\n-   second condition & its note\n\nParagraph 0:",
      ),
    ).toBe(true);
    expect(c.length).toBeGreaterThan(128 * 1024);
    const guide = c.indexOf(
      "## Coding Guidelines\n\nBill one unit per knee.\n\n1.  Use the side modifier",
    );
    const docs = c.indexOf(
      "## Documentation Requirements\n\nThe record must show the _fitting_ date.",
    );
    expect(guide).toBeGreaterThan(0);
    expect(docs).toBeGreaterThan(guide);
    expect(c).not.toContain("<p>");
    const ncd = await policy("cms-ncd/240.4/2008-03-13");
    expect(ncd.criteria_text).toBe(
      "Covered when:\n\n-   a sleep test shows the need\n-   the patient was taught to use it",
    );
    expect((await policy("cms-article/A59001/2024-06-01")).criteria_text).toBeNull();
  });

  it("summary: the first 300 characters of plain text, cut at a word with …", async () => {
    const a = await policy("cms-article/A59001/2024-06-01");
    expect(a.summary!.length).toBeLessThanOrEqual(300);
    expect(a.summary).toMatch(/^This article explains billing for glucose monitoring supplies/);
    expect(a.summary).toMatch(/ to pass three hundred…$/);
    expect((await policy("cms-article/A59002/2023-01-01")).summary).toBe("Short.");
    expect((await policy("cms-ncd/240.4/2008-03-13")).summary).toBe(
      "Devices that keep the airway open during sleep.",
    );
    const lcd = await policy("cms-lcd/L39001/2024-06-01");
    expect(lcd.summary).toMatch(/^Knee bracing applies when all of these hold: first condition/);
  });

  it("applicability: contractor subtypes give the LOB, jurisdictions give the states (sub-states one to one, terminated rows dropped, versions joined exactly)", async () => {
    // 101 Part B: NF (SF terminated 2020); 102 Part A: MO (EM ends on the from-date; active_date
    // ignored); 105 version 1, A and B without subtype: NY for both (WM is version 2's).
    expect(scopes(await policy("cms-lcd/L39001/2024-06-01"))).toEqual([
      "MO:medicare_part_a",
      "NF:medicare_part_b",
      "NY:medicare_part_a",
      "NY:medicare_part_b",
    ]);
    // 103 DME: TX (ZZ is not a spec state).
    expect(scopes(await policy("cms-lcd/L39002/2021-03-01"))).toEqual(["TX:medicare_part_b"]);
    // 104 HHH: FL, whose term date is after the from-date.
    expect(scopes(await policy("cms-lcd/L39006/2024-07-01"))).toEqual(["FL:medicare_part_a"]);
    // EM's term date is after this article's from-date, so it counts here.
    expect(scopes(await policy("cms-article/A59002/2023-01-01"))).toEqual([
      "EM:medicare_part_a",
      "MO:medicare_part_a",
    ]);
    expect(scopes(await policy("cms-article/A59004/2024-02-01"))).toEqual([
      "CNMI:medicare_part_a",
      "CNMI:medicare_part_b",
    ]);
  });

  it("a sub-state is its own state: MO does not include EM, CA does not include NF", async () => {
    expect(await searchIds(["--state", "CA", "--exact-state"])).toEqual([
      "cms-ncd/20.4/2015-05-01",
      "cms-ncd/240.4/2024-01-01",
    ]);
    // The client's --state CA brings NF and SF (cli.md): the import kept them apart, the
    // search finds both.
    expect(await searchIds(["--state", "CA", "--lob", "medicare_part_b"])).toEqual([
      "cms-article/A59001/2024-06-01",
      "cms-lcd/L39001/2024-06-01",
      "cms-ncd/20.4/2015-05-01",
      "cms-ncd/240.4/2024-01-01",
    ]);
    expect(await searchIds(["--state", "NF", "--lob", "medicare_part_b"])).toEqual([
      "cms-article/A59001/2024-06-01",
      "cms-lcd/L39001/2024-06-01",
      "cms-ncd/20.4/2015-05-01",
      "cms-ncd/240.4/2024-01-01",
    ]);
    expect(
      await searchIds(["--state", "EM", "--retired", "--lob-id", "CMS_medicare_part_a_EM"]),
    ).toEqual(["cms-article/A59002/2023-01-01"]);
  });

  it("LOBs: those an imported document links to, plus the two nationwide ones", async () => {
    const r = await cli(["lobs", "--json", "--limit", "100"]);
    const ids = (JSON.parse(r.stdout) as { data: Array<{ lob_id: string }> }).data.map(
      (l) => l.lob_id,
    );
    expect(ids.sort()).toEqual(
      [
        "CMS_medicare_part_a_CNMI",
        "CMS_medicare_part_a_EM",
        "CMS_medicare_part_a_FL",
        "CMS_medicare_part_a_MO",
        "CMS_medicare_part_a_NY",
        "CMS_medicare_part_a_US",
        "CMS_medicare_part_b_CNMI",
        "CMS_medicare_part_b_NF",
        "CMS_medicare_part_b_NY",
        "CMS_medicare_part_b_TX",
        "CMS_medicare_part_b_US",
      ].sort(),
    );
  });

  it("HCPCS/CPT lists: CPT by shape (5 digits, 4 digits + F/T/U), not covered when the group's paragraph says so", async () => {
    const d = await policy("cms-lcd/L39001/2024-06-01");
    const covered = "Braces covered when fitted";
    const notCovered = "The following are NOT reasonable and necessary for this use.";
    expect(group(d, "CPT", "COVERS", covered)?.codes).toEqual(["97760", "0042T", "1234F", "0001U"]);
    expect(group(d, "HCPCS", "COVERS", covered)?.codes).toEqual(["L1833"]);
    expect(group(d, "CPT", "DOES_NOT_COVER", notCovered)?.codes).toEqual(["97110"]);
    expect(group(d, "HCPCS", "DOES_NOT_COVER", notCovered)?.codes).toEqual(["L1851"]);
    const a = await policy("cms-article/A59001/2024-06-01");
    expect(group(a, "CPT", "DOES_NOT_COVER", "Non-covered lab tests")?.codes).toEqual(["82947"]);
    expect(group(a, "HCPCS", "COVERS", "Supplies")?.codes).toEqual(["A4253"]);
  });

  it("ICD-10 lists: covered lists COVER whatever their paragraph says, non-covered lists DO NOT COVER; categories are the paragraph's plain text, collapsed, cut at 120", async () => {
    const a = await policy("cms-article/A59001/2024-06-01");
    expect(group(a, "ICD10CM", "COVERS", "Covered for diabetes care")?.codes).toEqual([
      "E11.9",
      "E11.65",
    ]);
    expect(
      group(a, "ICD10CM", "COVERS", "These diagnoses are not covered unless paired with group 1.")
        ?.codes,
    ).toEqual(["I10"]);
    const long = a.code_groups.find((g) => g.codes.includes("M17.11"))!;
    expect(long.category).toBe(
      "Group three: codes listed here apply only when the beneficiary has documented history of the condition for at least six",
    );
    expect(long.category!.length).toBeLessThanOrEqual(120);
    expect(group(a, "ICD10CM", "COVERS", null)?.codes).toEqual(["Z79.4"]);
    expect(group(a, "ICD10CM", "DOES_NOT_COVER", "Screening only")?.codes).toEqual(["Z00.00"]);
    expect(await searchIds(["--code", "ICD10CM:E119", "--state", "NY"])).toEqual([
      "cms-article/A59001/2024-06-01",
    ]);
  });

  it("modifiers: two digits are CPT modifiers, the rest HCPCS modifiers, both REFERENCES", async () => {
    const a = await policy("cms-article/A59001/2024-06-01");
    expect(group(a, "CPT_MODIFIER", "REFERENCES", null)?.codes).toEqual(["59"]);
    expect(group(a, "HCPCS_MODIFIER", "REFERENCES", null)?.codes).toEqual(["KX"]);
  });

  it("--icd10cm and --hcpcs swapped: each named in a warning, and no line of one taken for the other", async () => {
    // Codes whose fifth character is 3 or 7 put a code-record or a modifier-record digit where
    // the ANWEB file has its record type (column 11).
    const order = path.join(dir, "swapped-order.txt");
    await writeLatin1(order, [
      icd10OrderLine(1, "E1143", true, "Diabetes type two with autonomic neuropathy (order file)"),
      icd10OrderLine(2, "E1137X1", true, "Diabetes type two with macular edema (order file)"),
    ]);
    const r = await runInProcess([
      "data",
      "import",
      "mcd",
      zip,
      "-o",
      path.join(dir, "swapped.json"),
      "--icd10cm",
      path.join(dir, "HCPC2026_JAN_ANWEB.txt"),
      "--hcpcs",
      order,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: --icd10cm ${path.join(dir, "HCPC2026_JAN_ANWEB.txt")}: no ICD-10-CM order-file lines recognised`,
    );
    expect(r.stderr).toContain(
      `warning: --hcpcs ${order}: no HCPCS Level II (ANWEB) lines recognised`,
    );
    expect(r.stderr).not.toMatch(/from --(icd10cm|hcpcs)/);
  });

  it("--icd10cm given a text that is no order file (a README): warned about, no junk descriptions", async () => {
    const readme = path.join(dir, "README.md");
    // Columns 7-13 hold a code-shaped word and the line runs past column 78, as prose does.
    const prose = "words of a paragraph that runs on well past the seventy-eighth column, ".repeat(
      2,
    );
    await writeLatin1(readme, [
      "# Notes",
      `Keep  BUNDLE the same rules, so it ${prose}`,
      `| id | T0588D | rs   active  2026-11-15 ${prose}`,
    ]);
    const out = path.join(dir, "readme.json");
    const r = await runInProcess(["data", "import", "mcd", zip, "-o", out, "--icd10cm", readme]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: --icd10cm ${readme}: no ICD-10-CM order-file lines recognised`,
    );
    expect(readFileSync(out, "utf8")).not.toMatch(/seventy-eighth/);
  });

  it("code catalogue: ICD-10-CM from the export, replaced by --icd10cm; HCPCS from --hcpcs (continuation lines joined); never CPT", async () => {
    const a = await policy("cms-article/A59001/2024-06-01");
    expect(group(a, "ICD10CM", "COVERS", "Covered for diabetes care")?.descriptions).toEqual([
      "Diabetes type two without complication (order file)",
      "Diabetes type two with high glucose (order file)",
    ]);
    expect(
      group(a, "ICD10CM", "COVERS", "These diagnoses are not covered unless paired with group 1.")
        ?.descriptions,
    ).toEqual(["High blood pressure (sample wording)"]);
    expect(group(a, "HCPCS", "COVERS", "Supplies")?.descriptions).toEqual([
      "Test strips for a glucose meter, per fifty (sample wording)",
    ]);
    expect(group(a, "HCPCS_MODIFIER", "REFERENCES", null)?.descriptions).toEqual([
      "Requirements in the policy have been met (sample wording)",
    ]);
    const d = await policy("cms-lcd/L39001/2024-06-01");
    expect(group(d, "HCPCS", "COVERS", "Braces covered when fitted")?.descriptions).toEqual([
      "Knee brace, adjustable joints, bought ready to wear, fitted and adjusted by an expert, sample wording for the tests",
    ]);
    expect(group(d, "CPT", "COVERS", "Braces covered when fitted")?.descriptions).toBeUndefined();
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain("A CPT-shaped line");
    expect(text).not.toContain("MCD long text not kept");
    expect(text).not.toContain("replaced by --hcpcs");
    // A letter code that --hcpcs does not list keeps the export's (public) long_description.
    expect(text).toContain("Orthosis L1851 (export wording)");
    expect(text).not.toContain("an MCD long description the importer must not keep");
  });

  it("as_of is the latest last_updated date of the document tables", () => {
    const dataset = JSON.parse(readFileSync(out, "utf8")) as { as_of: string };
    expect(dataset.as_of).toBe("2025-08-01");
  });

  it("the text variant holds every narrative section as markdown", async () => {
    const target = path.join(dir, "L39001.md");
    const r = await cli(["download", "cms-lcd/L39001/2024-06-01", "--text", "-o", target]);
    expect(r.exitCode, r.stderr).toBe(0);
    const md = readFileSync(target, "utf8");
    expect(md.startsWith("# Knee Braces – Sample Policy (L39001)\n\n## Coverage Indications")).toBe(
      true,
    );
    expect(md).toContain("## Summary of Evidence\n\nEvidence section text.");
    expect(md).not.toContain("<p>");
  });

  it("the same export as separate zips or extracted folders gives the same dataset, lookups not duplicated", async () => {
    const policies = (file: string) =>
      (JSON.parse(readFileSync(file, "utf8")) as { policies: unknown[] }).policies;
    const want = policies(out);
    for (const layout of ["separate", "folders"] as const) {
      const sub = mkdtempSync(path.join(dir, `${layout}-`));
      const inputs = await writeMcdExport(path.join(sub, "export"), sampleTables(), layout);
      const target = path.join(sub, "medicare.json");
      const r = await runInProcess(["data", "import", "mcd", ...inputs, "-o", target]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(policies(target)).toEqual(want);
    }
    const l1 = (want as Array<{ policy_id: string; applicability: unknown[] }>).find(
      (p) => p.policy_id === "cms-lcd/L39001/2024-06-01",
    )!;
    expect(l1.applicability).toHaveLength(4);
  });
});

describe("coverage data import mcd: bad input (e2e)", () => {
  const fresh = () => mkdtempSync(path.join(dir, "bad-"));
  const left = (d: string) => readdirSync(d).filter((f) => f !== "export");

  it("--strict fails on a malformed row naming file and line, and leaves nothing behind", async () => {
    const d = fresh();
    const r = await runInProcess([
      "data",
      "import",
      "mcd",
      zip,
      "-o",
      path.join(d, "x.json"),
      "--strict",
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/article_x_hcpc_code\.csv line 4: empty hcpc_code_id/);
    expect(r.stderr).not.toMatch(/\bat \w+ \(/); // no stack trace
    expect(left(d)).toEqual([]);
  });

  it("a missing required file is named (exit 2)", async () => {
    const d = fresh();
    const tables = sampleTables();
    delete tables["contractor_jurisdiction.csv"];
    const inputs = await writeMcdExport(path.join(d, "export"), tables, "separate");
    const r = await runInProcess([
      "data",
      "import",
      "mcd",
      ...inputs,
      "-o",
      path.join(d, "x.json"),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("contractor_jurisdiction.csv is missing");
    expect(left(d)).toEqual([]);
  });

  it("a missing column is named with its file (exit 2)", async () => {
    const d = fresh();
    const inputs = await writeMcdExport(path.join(d, "export"), sampleTables(), "all_data", {
      "lcd.csv": ["rev_eff_date"],
    });
    const r = await runInProcess([
      "data",
      "import",
      "mcd",
      ...inputs,
      "-o",
      path.join(d, "x.json"),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/lcd\.csv: no column 'rev_eff_date'/);
    expect(left(d)).toEqual([]);
  });

  it("an existing output is replaced only with --force", async () => {
    const d = fresh();
    const target = path.join(d, "x.json");
    writeFileSync(target, "keep");
    const r = await runInProcess(["data", "import", "mcd", zip, "-o", target]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("already exists");
    expect(readFileSync(target, "utf8")).toBe("keep");
    const forced = await runInProcess(["data", "import", "mcd", zip, "-o", target, "--force"]);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toContain('"format":"coverage-dataset"');
  });

  it.skipIf(!SQLITE)(
    "-o x.db writes a snapshot (and x.files/) that answers exactly as the JSON dataset",
    async () => {
      const d = fresh();
      const db = path.join(d, "x.db");
      const codeSets = ["--icd10cm", path.join(dir, "icd10cm_order_2026.txt")];
      codeSets.push("--hcpcs", path.join(dir, "HCPC2026_JAN_ANWEB.txt"));
      const r = await runInProcess(["data", "import", "mcd", zip, "-o", db, "-q", ...codeSets]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readdirSync(d).sort()).toEqual(["x.db", "x.files"]);
      const both = async (args: string[]) => {
        const [a, b] = await Promise.all([
          runInProcess(["--local", "--data", out, ...args]),
          runInProcess(["--local", "--data", db, ...args]),
        ]);
        expect(b.exitCode, b.stderr).toBe(a.exitCode);
        expect(b.stdout).toBe(a.stdout);
        return b.stdout;
      };
      const page = JSON.parse(await both(["search", "--json", "--limit", "100", "--retired"]));
      expect(page.data.length).toBeGreaterThan(0);
      await both(["search", "--json", "--code", "ICD10CM:E11.9", "--state", "NF"]);
      await both(["payers", "--json"]);
      await both(["lobs", "--json", "--all"]);
      await both(["updates", "--json", "--days", "365"]);
      const id = (page.data as Array<{ policy_id: string }>)[0]!.policy_id;
      await both(["policy", id, "--json"]);
      expect(await both(["download", id, "--text", "-o", "-"])).toContain("# ");
    },
  );

  it.skipIf(SQLITE)(
    "-o x.db on a Node.js without node:sqlite: exit 2 naming the version",
    async () => {
      const d = fresh();
      const r = await runInProcess(["data", "import", "mcd", zip, "-o", path.join(d, "x.db")]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("Node.js 22.13 or newer");
      expect(left(d)).toEqual([]);
    },
  );

  it("an output folder that does not exist is named (exit 2), and not created", async () => {
    const d = fresh();
    const r = await runInProcess([
      "data",
      "import",
      "mcd",
      zip,
      "-o",
      path.join(d, "no", "x.json"),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("does not exist");
    expect(left(d)).toEqual([]);
  });

  it("a path that is not an export is named (exit 2)", async () => {
    const d = fresh();
    const r = await runInProcess([
      "data",
      "import",
      "mcd",
      path.join(d, "none.zip"),
      "-o",
      path.join(d, "x.json"),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("none.zip");
  });

  it("Ctrl-C stops the import with exit 130 and leaves nothing behind", async () => {
    const d = fresh();
    const inputs = await writeMcdExport(path.join(d, "export"), scaleTables(0.3), "all_data");
    const child = runCoverage(["data", "import", "mcd", ...inputs, "-o", path.join(d, "x.json")]);
    // Once the first text file is being written the import is under way: interrupt it then.
    for (let i = 0; i < 600 && !left(d).some((f) => f.endsWith(".part")); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGINT");
    const r = await child;
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain("nothing was written");
    expect(left(d)).toEqual([]);
  });
});
