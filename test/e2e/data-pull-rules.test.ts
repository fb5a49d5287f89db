// `data pull medicare --with edits,fees,pa`: the DMEPOS fee schedule fetched from CMS's page (a
// local server here) and imported with the shipped prior-authorization lists; the files behind
// the AMA's licence page named with the page to open and the command that imports them.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cmsContent,
  HCPCS_PAGE,
  ICD10_PAGE,
  startCms,
  zipOf,
  type CmsServer,
} from "../helpers/cms-server.js";
import { ROOT } from "../helpers/cli.js";
import { sampleTables } from "../helpers/mcd-sample.js";
import { runInProcess } from "../helpers/run-cli.js";
import { SQLITE } from "../helpers/snapshot.js";

const work = mkdtempSync(path.join(os.tmpdir(), "coverage-pull-rules-"));
const dataHome = path.join(work, "data-home");
const DMEPOS_PAGE = "/medicare/payment/fee-schedules/dmepos/dmepos-fee-schedule";
const MEDICAID_PAGE = "/medicare/coding-billing/ncci-medicaid/medicaid-ncci-edit-files";
// Zip names as CMS's Medicaid page links them (public scrapers record them; the quarter is
// written both ways round); the tables inside are the layout fixtures (docs/data.md).
const MCD_PTP = "/files/zip/medicaid-ncci-2026-q4-ptp-edits-practitioner-services.zip";
const MCD_PTP_DME = "/files/zip/medicaid-ncci-2026-q4-ptp-edits-durable-medical-equipment.zip";
const MCD_MUE = "/files/zip/medicaid-ncci-2026-q4-mue-edits-practitioner-services.zip";
const MCD_OLD = "/files/zip/medicaid-ncci-q3-2026-ptp-edits-practitioner-services.zip";
let cms: CmsServer;

beforeAll(async () => {
  const dmepos = readFileSync(
    path.join(ROOT, "test", "fixtures", "medicare", "layout", "DMEPOS26_OCT.csv"),
  );
  const layout = (f: string) =>
    readFileSync(path.join(ROOT, "test", "fixtures", "medicare", "layout", f));
  const ptp = layout("ccipra-v322r0-f2.txt");
  cms = await startCms({
    [MEDICAID_PAGE]: `<html>${[MCD_PTP, MCD_PTP_DME, MCD_MUE, MCD_OLD].map((u) => `<a href="${u}">zip</a>`).join(" ")}</html>`,
    [MCD_PTP]: await zipOf([
      ["Medicaid_PTP_Practitioner_2026Q4_1.txt", ptp],
      ["Medicaid_PTP_Practitioner_2026Q4_2.txt", ptp],
      ["ReadMe.pdf", Buffer.from("%PDF")],
    ]),
    [MCD_PTP_DME]: await zipOf([["Medicaid_PTP_DME_2026Q4.txt", ptp]]),
    [MCD_MUE]: await zipOf([
      [
        "MCD_MUE_PractitionerServices_2026Q4.csv",
        layout("MCD_MUE_PractitionerServices_Eff_10-01-2026.csv"),
      ],
    ]),
    [MCD_OLD]: await zipOf([["old.txt", ptp]]),
    ...(await cmsContent(path.join(work, "export"), sampleTables())),
    [DMEPOS_PAGE]: `<html><a href="/files/zip/dme26-d.zip">October 2026</a> <a href="/files/zip/dme26-c.zip">July</a></html>`,
    "/files/zip/dme26-d.zip": await zipOf([["DMEPOS26_OCT.csv", dmepos]]),
  });
}, 120_000);
afterAll(async () => cms?.close());

describe.skipIf(!SQLITE)("data pull medicare --with", () => {
  it("fetches what needs no licence, names the pages behind the AMA's, never accepts it", async () => {
    const env = { XDG_DATA_HOME: dataHome, COVERAGE_RETRY_BASE_MS: "5", NO_COLOR: "1" };
    const r = await runInProcess(
      [
        "data",
        "pull",
        "medicare",
        "--source",
        `${cms.url}/exports/`,
        "--icd10cm-url",
        `${cms.url}${ICD10_PAGE}`,
        "--hcpcs-url",
        `${cms.url}${HCPCS_PAGE}`,
        "--with",
        "edits,fees,pa",
        "--dmepos-url",
        `${cms.url}${DMEPOS_PAGE}`,
        "--medicaid-ncci-url",
        `${cms.url}${MEDICAID_PAGE}`,
      ],
      { env },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cms.gets("/files/zip/dme26-d.zip")).toHaveLength(1);
    expect(cms.gets("/files/zip/dme26-c.zip")).toHaveLength(0);
    expect(r.stderr).toMatch(/Imported DMEPOS DMEPOS26_OCT: 3 rows/);
    // Medicaid's NCCI tables of the newest quarter, every setting; the older quarter left.
    for (const zip of [MCD_PTP, MCD_PTP_DME, MCD_MUE]) expect(cms.gets(zip)).toHaveLength(1);
    expect(cms.gets(MCD_OLD)).toHaveLength(0);
    expect(r.stderr).toMatch(/Imported PTP Medicaid practitioner 2026Q4: 6 rows/);
    expect(r.stderr).toMatch(/Imported PTP Medicaid dme 2026Q4: 6 rows/);
    expect(r.stderr).toMatch(/Imported MUE Medicaid practitioner 2026Q4: \d+ rows/);
    expect(r.stderr).toMatch(/Imported PA prior-authorization\.csv: \d+ rows/);
    expect(r.stderr).toMatch(
      /medicare-ncci-procedure-procedure-ptp-edits .*coverage data import edits FILES\.\.\. --into medicare/,
    );
    expect(r.stderr).toMatch(/pfs-relative-value-files.*coverage data import fees/);
    expect(r.stderr).not.toMatch(/accept(ed|ing) the licen[cs]e/i);
    expect(readdirSync(path.join(dataHome, "coverage"))).not.toContain("medicare.pull-dme26-d.zip");
    const code = await runInProcess(
      ["--data", "medicare", "code", "HCPCS:E0601", "--state", "PA", "--json"],
      { env },
    );
    expect(code.exitCode, code.stderr).toBe(0);
    expect(JSON.parse(code.stdout).medicare.dmepos[0]).toMatchObject({ non_rural: 50.04 });
    const edits = await runInProcess(["--data", "medicare", "code", "CPT:64483", "--json"], {
      env,
    });
    const medicare = JSON.parse(edits.stdout).medicare as {
      mue: Array<{ program: string }>;
      releases: Array<{ kind: string; program: string; part: number }>;
    };
    expect(medicare.mue[0]).toMatchObject({ program: "medicaid", value: 1 });
    // Two files of one table in a zip, no part in their names: parts 1 and 2, both kept.
    expect(
      medicare.releases
        .filter((x) => x.kind === "ptp" && x.program === "medicaid")
        .map((x) => x.part),
    ).toEqual([1, 2, 0]);
  });

  it("refuses an unknown kind before pulling anything (exit 2)", async () => {
    const r = await runInProcess(["data", "pull", "medicare", "--with", "edits,ambulance"], {
      env: { XDG_DATA_HOME: path.join(work, "other") },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--with 'ambulance' is not one of edits, fees, pa/);
  });
});
