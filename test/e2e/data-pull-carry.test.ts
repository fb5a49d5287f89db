// A pull builds a new medicare.db: the edits, fees and prior-authorization lists imported into
// the old one by hand (`data import edits|fees|pa --into medicare`, some only behind CMS's
// licence page) are carried into it, not lost. Real PTP and MUE rows
// (test/fixtures/medicare/real), pulled over from a loopback server that plays CMS.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCoverage } from "../helpers/cli.js";
import { cmsContent, exportZips, startCms, type CmsServer } from "../helpers/cms-server.js";
import { sampleTables } from "../helpers/mcd-sample.js";
import { SQLITE } from "../helpers/snapshot.js";

const REAL = path.join(ROOT, "test", "fixtures", "medicare", "real");
const work = mkdtempSync(path.join(os.tmpdir(), "coverage-pull-carry-"));
const env = () => ({
  XDG_DATA_HOME: path.join(work, "data-home"),
  COVERAGE_RETRY_BASE_MS: "5",
  NO_COLOR: "1",
});
let cms: CmsServer;
const pull = (...extra: string[]) =>
  runCoverage(
    ["data", "pull", "medicare", "--no-codes", "--source", `${cms.url}/exports/`, ...extra],
    { env: env() },
  );
const cli = (args: string[]) => runCoverage(args, { env: env(), cwd: work });
const importEdits = () =>
  cli([
    "data",
    "import",
    "edits",
    path.join(REAL, "ccipra-v322r0-f1.excerpt.txt"),
    path.join(REAL, "MCR_MUE_PractitionerServices_Eff_07-01-2026.excerpt.csv"),
    "--into",
    "medicare",
  ]);
/** 0001U's PTP edits on a date, and its MUE rows, as `code --json` gives them. */
async function edits(date = "2026-06-30") {
  const r = await cli(["--data", "medicare", "code", "CPT:0001U", "--date", date, "--json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  const medicare = (JSON.parse(r.stdout) as { medicare: { ptp: { count: number }; mue: unknown } })
    .medicare;
  return { ptp: medicare.ptp.count, mue: JSON.stringify(medicare.mue) };
}

describe.skipIf(!SQLITE)("a pull keeps the edits, fees and PA lists imported by hand", () => {
  let imported: { ptp: number; mue: string };

  beforeAll(async () => {
    cms = await startCms(await cmsContent(path.join(work, "week-one"), sampleTables()));
    const first = await pull();
    expect(first.exitCode, first.stderr).toBe(0);
    const r = await importEdits();
    expect(r.exitCode, r.stderr).toBe(0);
    imported = await edits();
  }, 120_000);
  afterAll(async () => cms?.close());

  it("the import answers before any further pull (0001U's real PTP rows on 2026-06-30)", () => {
    expect(imported.ptp).toBe(7);
    expect(imported.mue).not.toBe("[]");
  });

  it("a pull of a changed week carries them into the new snapshot, and says so in one line", async () => {
    const tables = sampleTables();
    const rows = [...tables["lcd.csv"]!()];
    const contractors = [...tables["lcd_x_contractor.csv"]!()];
    // Week two: one LCD more (a copy of an active one under another id): a new snapshot is built.
    const first = rows.find((r) => r.status === "A" && !r.display_id?.startsWith("DL"))!;
    const link = contractors.find((r) => r.lcd_id === first.lcd_id)!;
    tables["lcd.csv"] = () => [...rows, { ...first, lcd_id: "39999", title: "Made-up LCD" }];
    tables["lcd_x_contractor.csv"] = () => [...contractors, { ...link, lcd_id: "39999" }];
    for (const [name, body] of await exportZips(path.join(work, "week-two"), tables))
      cms.put(`/exports/${name}`, body);
    const r = await pull();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 documents added/);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("Kept the imported edits"));
    expect(lines).toEqual([
      expect.stringMatching(
        /^Kept the imported edits, fees and prior-authorization lists \(\d+ rows\) from the previous snapshot$/,
      ),
    ]);
    expect(await edits()).toEqual(imported);
    expect((await edits("2026-07-01")).ptp).toBe(6);
    // Their indexes come along (a claim's pairs are answered from the pair index).
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path.join(work, "data-home", "coverage", "medicare.db"), {
      readOnly: true,
    });
    const names = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('ptp_edit', 'mue')",
      )
      .all()
      .map((row) => row.name);
    db.close();
    expect(names.sort()).toEqual(["mue_code", "ptp_edit_column2", "ptp_edit_pair"]);
  });

  it("the same week pulled again with --force keeps them too, and a re-import adds no duplicate", async () => {
    const r = await pull("--force");
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await edits()).toEqual(imported);
    const again = await importEdits();
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await edits()).toEqual(imported);
    const third = await pull("--force");
    expect(third.exitCode, third.stderr).toBe(0);
    expect(await edits()).toEqual(imported);
  });
});
