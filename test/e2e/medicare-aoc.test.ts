// NCCI add-on code (AOC) edits: CMS publishes them as an Excel workbook in a zip
// (AOC_V2026Q2-MCR.zip > AOC_V2026Q2-MCR.xlsx). No public repository commits the workbook, so the
// test builds one from test/fixtures/medicare/layout/AOC_V2026Q2-MCR.tsv, rows written from the
// documented layout (see that folder's README), then imports it, reads it in `code` and `check`.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { zipOf } from "../helpers/cms-server.js";
import { runInProcess } from "../helpers/run-cli.js";
import { SQLITE } from "../helpers/snapshot.js";
import { checkedLines, verdictsOf } from "../helpers/check-json.js";
import { workbookOf } from "../helpers/xlsx.js";
import type { CodeDossier } from "../../src/views/code-dossier.js";

const LAYOUT = path.join(ROOT, "test", "fixtures", "medicare", "layout");
const rows = readFileSync(path.join(LAYOUT, "AOC_V2026Q2-MCR.tsv"), "latin1")
  .trimEnd()
  .split(/\r?\n/)
  .map((l) => l.split("\t"));
const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-aoc-"));
const db = path.join(dir, "rules.db");
const run = (args: string[], input?: string) =>
  runInProcess(args, {
    env: { COVERAGE_TODAY: "2026-11-28" },
    ...(input !== undefined && { input }),
  });

async function dossier(code: string, date: string): Promise<CodeDossier> {
  const r = await run(["--data", db, "code", code, "--date", date, "--json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { medicare: CodeDossier }).medicare;
}

describe.skipIf(!SQLITE)("NCCI add-on code edits: import, code, check", () => {
  beforeAll(async () => {
    const zip = path.join(dir, "AOC_V2026Q2-MCR.zip");
    writeFileSync(
      zip,
      await zipOf([
        ["AOC_V2026Q2-MCR.xlsx", await workbookOf(rows, "AOC_V2026Q2-MCR")],
        ["AOC_V2026Q2-MCR_ReadMe.pdf", Buffer.from("%PDF-1.4 not read")],
        // Another sheet of the zip is passed over; a workbook not named AOC is not even opened.
        ["AOC_V2026Q2-MCR_Summary.xlsx", await workbookOf([["Summary of changes"], ["none"]])],
        ["PPRRVU2026_Oct_nonQPP.xlsx", Buffer.from("not a workbook")],
      ]),
    );
    const r = await run(["data", "import", "edits", zip, "--into", db]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /AOC V2026Q2: 10 rows \(1 with a deletion date before the effective date, kept as CMS wrote them; 1 line/,
    );
  }, 60_000);

  it("code: an add-on's type and primaries on the date, a primary's add-ons", async () => {
    const addOn = await dossier("CPT:64484", "2026-06-15");
    expect(addOn.add_on?.as_add_on).toEqual([
      {
        type: 1,
        type_meaning: "paid only with one of the primary codes CMS lists",
        primaries: ["64483"],
        program: "medicare",
        release: "V2026Q2",
      },
    ]);
    expect((await dossier("CPT:64483", "2026-06-15")).add_on?.as_primary).toEqual([
      { add_on: "64484", type: 1, program: "medicare", release: "V2026Q2" },
    ]);
    // A pairing applies through its deletion date (2020366 = 2020-12-31, Julian).
    const primariesOn = async (date: string) =>
      (await dossier("CPT:22552", date)).add_on?.as_add_on[0]?.primaries;
    expect(await primariesOn("2020-12-31")).toEqual(["22551", "22554"]);
    expect(await primariesOn("2021-01-01")).toEqual(["22551"]);
    // Excel held 01953 as the number 1953: read back as the code.
    expect((await dossier("CPT:01953", "2026-06-15")).add_on?.as_add_on[0]?.primaries).toEqual([
      "01952",
    ]);
    // Type 2: the contractor's primaries (CCCCC in the file): none listed.
    expect((await dossier("CPT:96376", "2026-06-15")).add_on?.as_add_on[0]).toMatchObject({
      type: 2,
      primaries: [],
    });
    const text = await run(["--data", db, "code", "CPT:64484", "--date", "2026-06-15"]);
    expect(text.stdout).toMatch(/add-on code, type 1 .*primaries: 64483 \(AOC V2026Q2\)/s);
  });

  it("check: an add-on without its primary that day is a row; types 2 and 3 only when alone", async () => {
    const csv = [
      "claim,procedure,diagnosis,date",
      "A,64484,M54.16,2026-06-15",
      "B,64483,M54.16,2026-06-15",
      "B,64484,M54.16,2026-06-15",
      "C,96376,,2026-06-15",
      "D,96376,,2026-06-15",
      "D,96365,,2026-06-15",
      "E,96375,,2026-06-15",
      "E,99213,,2026-06-15",
      "F,22552,,2026-06-15",
      "F,22554,,2026-06-15",
      "G,99292,,2026-06-15",
      "G,99291,,2026-06-14",
    ].join("\n");
    const r = await run(["--data", db, "check", "--input", "-", "--json"], csv);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = checkedLines(r.stdout);
    const edits = (n: number) => verdictsOf(lines, n).filter((v) => v !== "not addressed");
    expect(edits(2)).toEqual(["add-on without primary (NCCI AOC type 1)"]);
    expect(edits(4)).toEqual([]); // 64483 on the claim that day
    expect(edits(5)).toEqual(["add-on without primary (NCCI AOC type 2)"]); // alone
    expect(edits(6)).toEqual([]); // type 2 beside another code: the contractor decides
    expect(edits(8)).toEqual([]); // type 3 beside a code CMS does not list: the contractor may
    expect(edits(10)).toEqual(["add-on without primary (NCCI AOC type 1)"]); // 22554 deleted 2020
    expect(edits(12)).toEqual(["add-on without primary (NCCI AOC type 1)"]); // another day
    const rule = lines.find((l) => l.line === 2)?.results.find((x) => x.rule)?.rule;
    expect(rule).toBe(
      "NCCI AOC medicare V2026Q2: 64484 type 1, needs one of 64483 on the same date",
    );
    expect(r.stderr).toMatch(/4 add-on without primary/);
    const failing = await run(
      ["--data", db, "check", "--input", "-", "--fail-on", "add-on-without-primary"],
      csv,
    );
    expect(failing.exitCode).toBe(6);
  });

  it("a workbook that is not the AOC layout is refused, naming what was expected", async () => {
    const wrong = path.join(dir, "AOC_V2026Q2-MCR-moved.xlsx");
    writeFileSync(
      wrong,
      await workbookOf([
        ["Add-On_Code", "AOC_Edit_Type"],
        ["64484", "1"],
      ]),
    );
    const r = await run(["data", "import", "edits", wrong, "--into", db]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/not an NCCI PTP edit file.*or an NCCI add-on code edit file/s);
    const notZip = path.join(dir, "AOC_V2026Q3-MCR.xlsx");
    writeFileSync(notZip, "AOC_Edit_Type,Add-On_Code\n");
    const bad = await run(["data", "import", "edits", notZip, "--into", db]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/not a readable Excel workbook/);
  });

  it("data info lists the rule files held: kind, setting, release, part, dates, rows, PA sources", async () => {
    const info = path.join(dir, "info.db");
    const real = path.join(ROOT, "test", "fixtures", "medicare", "real");
    const imports = [
      [
        "edits",
        path.join(real, "ccipra-v322r0-f1.excerpt.txt"),
        path.join(LAYOUT, "MCD_MUE_PractitionerServices_Eff_10-01-2026.csv"),
      ],
      ["fees", path.join(real, "GPCI2026.excerpt.csv")],
      ["pa"],
    ];
    for (const [group, ...files] of imports)
      expect(
        (await run(["data", "import", group as string, ...files, "--into", info])).exitCode,
      ).toBe(0);
    const text = await run(["data", "info", info]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Medicare rules:/);
    expect(text.stdout).toMatch(/PTP practitioner v322r0 f1 +24 rows/);
    expect(text.stdout).toMatch(
      /MUE practitioner Medicaid 2026-10-01 +\d+ rows; effective 2026-10-01/,
    );
    expect(text.stdout).toMatch(/GPCI GPCI2026 +\d+ rows/);
    expect(text.stdout).toMatch(
      /PA prior-authorization\.csv +\d+ rows; DMEPOS \d+, OPD \d+, WISeR \d+; \d+ sources/,
    );
    const json = await run(["data", "info", info, "--json"]);
    const rules = (JSON.parse(json.stdout) as { rules: Array<Record<string, unknown>> }).rules;
    expect(rules.map((r) => r.kind)).toEqual(["ptp", "mue", "gpci", "pa"]);
    expect(rules[0]).toMatchObject({
      setting: "practitioner",
      release: "v322r0",
      part: 1,
      rows: 24,
    });
    expect(rules[1]).toMatchObject({ program: "medicaid", effective: "2026-10-01" });
    expect((rules[3]?.sources as string[]).length).toBeGreaterThan(1);
    // A snapshot without rules says nothing of them.
    const bare = await run(["data", "info", "--json"]);
    expect(JSON.parse(bare.stdout)).not.toHaveProperty("rules");
  });

  it("a snapshot whose rules predate the add-on edits (no aoc_edit table) still answers", async () => {
    const old = path.join(dir, "old.db");
    const ptp = path.join(
      ROOT,
      "test",
      "fixtures",
      "medicare",
      "real",
      "ccipra-v322r0-f1.excerpt.txt",
    );
    expect((await run(["data", "import", "edits", ptp, "--into", old])).exitCode).toBe(0);
    const { DatabaseSync } = await import("node:sqlite");
    const handle = new DatabaseSync(old);
    handle.exec("DROP TABLE aoc_edit");
    handle.close();
    const r = await run(["--data", old, "code", "CPT:64484", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { medicare: CodeDossier }).medicare.add_on).toBeNull();
    const check = await run(["--data", old, "check", "--procedure", "CPT:64484"]);
    expect(check.exitCode, check.stderr).toBe(0);
  });
});
