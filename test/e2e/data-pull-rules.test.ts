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
let cms: CmsServer;

beforeAll(async () => {
  const dmepos = readFileSync(
    path.join(ROOT, "test", "fixtures", "medicare", "layout", "DMEPOS26_OCT.csv"),
  );
  cms = await startCms({
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
      ],
      { env },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cms.gets("/files/zip/dme26-d.zip")).toHaveLength(1);
    expect(cms.gets("/files/zip/dme26-c.zip")).toHaveLength(0);
    expect(r.stderr).toMatch(/Imported DMEPOS DMEPOS26_OCT: 3 rows/);
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
  });

  it("refuses an unknown kind before pulling anything (exit 2)", async () => {
    const r = await runInProcess(["data", "pull", "medicare", "--with", "edits,ambulance"], {
      env: { XDG_DATA_HOME: path.join(work, "other") },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--with 'ambulance' is not one of edits, fees, pa/);
  });
});
