// Medicare's edits, fees and prior authorization (cli.md, "the code dossier"): imported from
// files in CMS's layouts (real rows where public, test/fixtures/medicare/real; else written from
// the layout, test/fixtures/medicare/layout), then read by `code` and `check`.
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { zipOf } from "../helpers/cms-server.js";
import { connectInProcess } from "../helpers/mcp.js";
import { runInProcess } from "../helpers/run-cli.js";
import { cleanEnv } from "../helpers/cli.js";
import { SQLITE } from "../helpers/snapshot.js";
import type { CodeDossier } from "../../src/views/code-dossier.js";
import { checkedLines, verdictsOf } from "../helpers/check-json.js";

const REAL = path.join(ROOT, "test", "fixtures", "medicare", "real");
const LAYOUT = path.join(ROOT, "test", "fixtures", "medicare", "layout");
const real = (f: string) => path.join(REAL, f);
const layout = (f: string) => path.join(LAYOUT, f);

const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-medicare-"));
const db = path.join(dir, "rules.db");
const run = (args: string[], input?: string) =>
  runInProcess(args, {
    env: { COVERAGE_TODAY: "2026-11-28" },
    ...(input !== undefined && { input }),
  });

async function json(args: string[]): Promise<{ medicare: CodeDossier }> {
  const r = await run([...args, "--json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { medicare: CodeDossier };
}

describe.skipIf(!SQLITE)("data import edits|fees|pa, code, check", () => {
  beforeAll(async () => {
    const edits = await run([
      "data",
      "import",
      "edits",
      real("ccipra-v322r0-f1.excerpt.txt"),
      real("MCR_MUE_PractitionerServices_Eff_07-01-2026.excerpt.csv"),
      layout("ccipra-v322r0-f2.txt"),
      layout("ccioph-v322r0-f1.txt"),
      layout("MCR_MUE_PractitionerServices_Eff_10-01-2026.csv"),
      layout("MCR_MUE_OutpatientHospitalServices_Eff_10-01-2026.csv"),
      "--into",
      db,
    ]);
    expect(edits.exitCode, edits.stderr).toBe(0);
    const fees = await run([
      "data",
      "import",
      "fees",
      layout("PPRRVU2026_Oct_nonQPP.csv"),
      real("GPCI2026.excerpt.csv"),
      layout("DMEPOS26_OCT.csv"),
      "--into",
      db,
    ]);
    expect(fees.exitCode, fees.stderr).toBe(0);
    const pa = await run(["data", "import", "pa", "--into", db]);
    expect(pa.exitCode, pa.stderr).toBe(0);
  }, 60_000);

  it("records each file's release and counts a deletion before the effective date", async () => {
    const r = await run(["data", "import", "edits", layout("ccipra-v322r0-f2.txt"), "--into", db]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /PTP practitioner v322r0 f2: 6 rows \(1 with a deletion date before the effective date/,
    );
  });

  it.each([
    [
      "an MUE table as PTP",
      "edits",
      layout("PPRRVU2026_Oct_nonQPP.csv"),
      /not an NCCI PTP edit file.*looks like a PFS/s,
    ],
    [
      "a PPRRVU whose header is not on its row",
      "fees",
      layout("PPRRVU2026_Oct_moved.csv"),
      /header .* on the tenth row.*row 9/s,
    ],
    [
      "a Medicaid MUE where Medicare's is expected",
      "edits",
      layout("MCD_MUE_PractitionerServices_Eff_10-01-2026.csv"),
      /Medicare MUE table was expected/,
    ],
  ])("refuses %s (exit 2) and imports nothing", async (_name, group, file, message) => {
    const before = statSync(db).mtimeMs;
    const bytes = readFileSync(db);
    const args = ["data", "import", group, real("GPCI2026.excerpt.csv"), file, "--into", db];
    if (group === "edits") args.splice(3, 1, real("ccipra-v322r0-f1.excerpt.txt"));
    if (file.includes("MCD_")) args.push("--program", "medicare");
    const r = await run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(statSync(db).mtimeMs).toBe(before);
    expect(readFileSync(db).equals(bytes)).toBe(true);
  });

  it("stores no CPT descriptor (nor any description column) from any file", () => {
    const text = readFileSync(db).toString("latin1");
    expect(text).not.toContain("DESCRIPTOR-MUST-NOT-BE-STORED");
    expect(text).not.toContain("REDACTED");
    expect(text).not.toContain("positive airway pressure");
  });

  it("code: MUE per setting, PTP partners on the date, PFS amounts to the cent, PA by state", async () => {
    const out = await json([
      "--data",
      db,
      "code",
      "CPT:64483",
      "--state",
      "TX",
      "--date",
      "2026-06-15",
      "--edits",
      "--locality",
      "18",
    ]);
    const m = out.medicare;
    expect(m.mue).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          setting: "practitioner",
          value: 1,
          mai: 2,
          release: "2026-10-01",
        }),
        expect.objectContaining({ setting: "hospital", value: 1, mai: 2 }),
      ]),
    );
    expect(m.mue[0]?.mai_meaning).toMatch(/date of service/);
    expect(m.ptp.count).toBe(2);
    expect(m.releases).toContainEqual(
      expect.objectContaining({
        kind: "ptp",
        setting: "hospital",
        release: "v322r0",
        part: 1,
        rows: 2,
      }),
    );
    expect(m.ptp.edits?.map((e) => [e.partner, e.modifier_indicator])).toEqual([
      ["64479", 1],
      ["77003", 0],
    ]);
    expect(m.fees[0]).toMatchObject({
      status: "A",
      global_days: "000",
      pctc: "0",
      release: "RVU26D",
      national: { non_facility: 228.8, facility: 98.53 },
    });
    expect(m.fees[0]?.locality).toMatchObject({
      state: "TX",
      locality: "18",
      non_facility: 230.58,
      facility: 101.23,
    });
    expect(m.prior_authorization).toEqual([
      expect.objectContaining({ program: "WISeR", from: "2026-01-15", to: "2031-12-31" }),
    ]);
    const ca = await json([
      "--data",
      db,
      "code",
      "CPT:64483",
      "--state",
      "CA",
      "--date",
      "2026-06-15",
    ]);
    expect(ca.medicare.prior_authorization).toEqual([]);
    const before = await json([
      "--data",
      db,
      "code",
      "CPT:64483",
      "--state",
      "TX",
      "--date",
      "2025-12-01",
    ]);
    expect(before.medicare.prior_authorization).toEqual([]);
  });

  it("code: the Medicare section's lines fit 80 columns, each naming its release", async () => {
    const r = await runInProcess(
      [
        "--data",
        db,
        "code",
        "CPT:64483",
        "--state",
        "TX",
        "--date",
        "2026-06-15",
        "--edits",
        "--locality",
        "18",
      ],
      { env: { COVERAGE_TODAY: "2026-11-28", COLUMNS: "80" } },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    for (const line of r.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(
      /64483 > 64479: practitioner, modifier indicator 1, since 2017-01-01;/,
    );
    expect(r.stdout).toMatch(/national \$228\.80 non-facility, \$98\.53\s+facility/);
    expect(r.stdout).toMatch(/\(v322r0\)/);
    expect(r.stdout).toMatch(/\(RVU26D\)/);
  });

  it("code: real PTP rows by date (an edit applies through its deletion date)", async () => {
    const on = async (date: string) =>
      (await json(["--data", db, "code", "CPT:0001U", "--date", date])).medicare.ptp.count;
    // 0001U's edits in the real excerpt: 0029U ends 2026-06-30, 0428U ran 2024-10-01 to 2024-12-31.
    expect(await on("2026-06-30")).toBe(7);
    expect(await on("2026-07-01")).toBe(6);
    expect(await on("2024-11-15")).toBe(8);
  });

  it("code: DMEPOS fee for the state, the national amount NA where CMS says so", async () => {
    const e = await json(["--data", db, "code", "HCPCS:E0601", "--state", "PA"]);
    expect(e.medicare.dmepos).toEqual([
      expect.objectContaining({ modifier: "RR", non_rural: 50.04, rural: 91.18 }),
    ]);
    const f = await json([
      "--data",
      db,
      "code",
      "CPT:22554",
      "--state",
      "TX",
      "--date",
      "2026-06-15",
    ]);
    expect(f.medicare.fees[0]?.national.non_facility).toBeNull();
  });

  it("check: bundled pairs, MUE by line and by day, prior authorization, beside the coverage verdicts", async () => {
    const csv = [
      "claim,procedure,diagnosis,state,date,units,modifiers",
      "A,64483,M54.16,TX,2026-11-01,1,",
      "A,64479,M54.16,TX,2026-11-01,1,",
      "A,77003,M54.16,TX,2026-11-01,1,59",
      "B,11042,L97.909,CA,2026-11-01,1,",
      "B,97597,L97.909,CA,2026-11-01,1,XS",
      "C,11042,L97.909,CA,2026-11-01,1,",
      "C,97597,L97.909,CA,2026-11-01,2,",
      "D,97110,M54.50,CA,2026-11-01,3,",
      "D,97110,M54.50,CA,2026-11-01,2,GP",
      "E,97110,M54.50,CA,2026-11-01,4,",
      "F,J1100,,CA,2026-11-01,1000000000,",
      "G,99213,,CA,2026-11-01,1.5,",
      "H,99213,,CA,2026-11-01,1,5",
    ].join("\n");
    const r = await run(["--data", db, "check", "--input", "-", "--json"], csv);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = checkedLines(r.stdout);
    const verdicts = (n: number) => verdictsOf(lines, n);
    expect(verdicts(2)).toEqual(["not addressed", "prior authorization required (WISeR)"]);
    expect(verdicts(3)).toContain("bundled (NCCI with 64483)"); // indicator 1, no bypass modifier
    expect(verdicts(4)).toContain("bundled (NCCI with 64483)"); // indicator 0: 59 does not help
    expect(verdicts(6)).not.toContain("bundled (NCCI with 11042)"); // indicator 1 with XS
    expect(verdicts(8)).toEqual([
      "not addressed",
      "bundled (NCCI with 11042)",
      "units over MUE (2 > 1)",
    ]); // MAI 1, a line
    expect(verdicts(9)).toContain("units over MUE (5 > 4)"); // MAI 3: the day's units
    expect(verdicts(10)).toContain("units over MUE (5 > 4)");
    expect(verdicts(11)).toEqual(["not addressed"]);
    expect(verdicts(12)).toContain("units over MUE (1000000000 > 100)");
    const rule = lines
      .find((l) => l.line === 3)
      ?.results.find((x) => x.verdict.startsWith("bundled"))?.rule;
    expect(rule).toMatch(/NCCI PTP practitioner v322r0: 64483 > 64479, modifier indicator 1/);
    expect(r.stderr).toMatch(/line 13, column units: '1.5' is not a whole number/);
    expect(r.stderr).toMatch(/line 14, column modifiers: '5' is not a modifier of two characters/);
    const strict = await run(["--data", db, "check", "--input", "-", "--strict"], csv);
    expect(strict.exitCode).toBe(2);
  });

  it("check --setting hospital applies the outpatient hospital PTP and MUE tables", async () => {
    const csv = [
      "claim,procedure,diagnosis,state,date,units",
      "A,93000,,CA,2026-11-01,1",
      "A,93005,,CA,2026-11-01,1",
      "A,97110,M54.50,CA,2026-11-01,5",
    ].join("\n");
    const edits = async (setting: string[]) => {
      const r = await run(["--data", db, "check", "--input", "-", ...setting, "--json"], csv);
      expect(r.exitCode, r.stderr).toBe(0);
      type Lines = { lines: Array<{ results: Array<{ verdict: string; rule?: string }> }> };
      return (JSON.parse(r.stdout) as Lines).lines.map((l) =>
        l.results.filter((x) => x.rule !== undefined).map((x) => x.verdict),
      );
    };
    // Practitioner (the default): no such pair in its table; 97110's MUE is 4 there.
    expect(await edits([])).toEqual([[], [], ["units over MUE (5 > 4)"]]);
    expect(await edits(["--setting", "hospital"])).toEqual([
      [],
      ["bundled (NCCI with 93000)"],
      [], // the hospital MUE of 97110 is 6
    ]);
    const dme = await run(["--data", db, "check", "--procedure", "CPT:97110", "--setting", "dme"]);
    expect(dme.exitCode, dme.stderr).toBe(0);
    expect(dme.stderr).toMatch(
      /holds no Medicare dme PTP or MUE table \(it holds medicare practitioner, medicare hospital\)/,
    );
    const bad = await run(["--data", db, "check", "--procedure", "CPT:97110", "--setting", "asc"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/'asc' is invalid. Allowed choices are practitioner, hospital, dme/);
  });

  it("a snapshot named in the data folder is made when missing", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "coverage-home-"));
    const r = await runInProcess(["data", "import", "pa", "--into", "rules"], {
      env: { XDG_DATA_HOME: home },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(statSync(path.join(home, "coverage", "rules.db")).size).toBeGreaterThan(0);
  });

  it("a list of the user's own extends the shipped one through the same import", async () => {
    const copy = path.join(dir, "copy.db");
    copyFileSync(db, copy);
    const own = path.join(dir, "own-list.csv");
    writeFileSync(
      own,
      "code,program,category,states,from,to,source\nE0601,PLAN-X,CPAP,TX,2026-01-01,,https://example.org/list\n",
    );
    expect((await run(["data", "import", "pa", own, "--into", copy])).exitCode).toBe(0);
    const e = await json(["--data", copy, "code", "HCPCS:E0601", "--state", "TX"]);
    expect(e.medicare.prior_authorization).toEqual([
      expect.objectContaining({ program: "PLAN-X" }),
    ]);
  });

  it("a record past 1 MiB is refused naming its file and line, and nothing is imported", async () => {
    const copy = path.join(dir, "long.db");
    copyFileSync(db, copy);
    const before = readFileSync(copy);
    const long = path.join(dir, "long-list.csv");
    // A quoted category that never ends within the limit: held whole it grew with the field.
    writeFileSync(
      long,
      `code,program,category,states,from,to,source\nE0601,PLAN-Y,"${"x".repeat(2 << 20)}",TX,2026-01-01,,https://example.org/l\n`,
    );
    const r = await run(["data", "import", "pa", long, "--into", copy]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/long-list\.csv: record 2 is longer than 1 MiB/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(copy).equals(before)).toBe(true);
  });

  it("MCP lookup_code and check_claim carry the same", async () => {
    const env = { ...cleanEnv(), COVERAGE_TODAY: "2026-11-28" };
    const mcp = await connectInProcess(["--data", db], env);
    try {
      const args = {
        code: "CPT:64483",
        states: ["TX"],
        effective_on: "2026-06-15",
        edits: true,
        locality: "18",
      };
      const tool = await mcp.client.callTool({ name: "lookup_code", arguments: args });
      expect(tool.isError).toBeFalsy();
      const cli = await json([
        "--data",
        db,
        "code",
        "CPT:64483",
        "--state",
        "TX",
        "--effective-on",
        "2026-06-15",
        "--edits",
        "--locality",
        "18",
      ]);
      expect(tool.structuredContent).toEqual(cli);
      const claim = await mcp.client.callTool({
        name: "check_claim",
        arguments: {
          procedure: "CPT:97597",
          state: "CA",
          date: "2026-11-01",
          units: 3,
          modifiers: ["59"],
        },
      });
      expect(claim.isError).toBeFalsy();
      const verdicts = (
        claim.structuredContent as { lines: Array<{ results: Array<{ verdict: string }> }> }
      ).lines[0]?.results.map((r) => r.verdict);
      expect(verdicts).toContain("units over MUE (3 > 1)");
      const pair = await mcp.client.callTool({
        name: "check_claim",
        arguments: {
          procedure: "CPT:64483",
          state: "TX",
          date: "2026-11-01",
          other_lines: [{ procedure: "CPT:64479" }, { procedure: "CPT:77003", modifiers: ["59"] }],
        },
      });
      expect(pair.isError, JSON.stringify(pair.content)).toBeFalsy();
      const lines = (
        pair.structuredContent as {
          lines: Array<{ line: number; results: Array<{ verdict: string }> }>;
        }
      ).lines;
      expect(lines.map((l) => l.results.map((r) => r.verdict))).toEqual([
        ["not addressed", "prior authorization required (WISeR)"],
        ["not addressed", "bundled (NCCI with 64483)", "prior authorization required (WISeR)"],
        ["not addressed", "bundled (NCCI with 64483)"],
      ]);
      const hospital = await mcp.client.callTool({
        name: "check_claim",
        arguments: {
          procedure: "CPT:93000",
          date: "2026-11-01",
          setting: "hospital",
          other_lines: [{ procedure: "CPT:93005" }],
        },
      });
      expect(hospital.isError, JSON.stringify(hospital.content)).toBeFalsy();
      const second = (
        hospital.structuredContent as { lines: Array<{ results: Array<{ verdict: string }> }> }
      ).lines[1]?.results.map((r) => r.verdict);
      expect(second).toContain("bundled (NCCI with 93000)");
    } finally {
      await mcp.close();
    }
  });

  it("an rvu zip as CMS publishes it: its other files passed over, nonQPP amounts, QPP noted", async () => {
    const pfs = readFileSync(layout("PPRRVU2026_Oct_nonQPP.csv"), "latin1");
    const zip = path.join(dir, "rvu26d.zip");
    writeFileSync(
      zip,
      await zipOf([
        ["PPRRVU2026_Oct_QPP.csv", Buffer.from(pfs.replaceAll("33.4009", "33.5675"), "latin1")],
        ["PPRRVU2026_Oct_nonQPP.csv", Buffer.from(pfs, "latin1")],
        ["PPRRVU2026_Oct.txt", Buffer.from("HDR 2026 fixed-width copy\r\n64483     A 1.90\r\n")],
        [
          "ANES2026.csv",
          Buffer.from("Contractor,Locality,Locality Name,Anesthesia Conversion Factor\r\n"),
        ],
        ["GPCI2026.csv", readFileSync(real("GPCI2026.excerpt.csv"))],
        ["RVU26D.pdf", Buffer.from("%PDF-1.4")],
      ]),
    );
    const copy = path.join(dir, "rvu.db");
    const r = await run(["data", "import", "fees", zip, "--into", copy]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/PFS qpp RVU26D: 7 rows/);
    const out = await json(["--data", copy, "code", "CPT:64483", "--date", "2026-11-01"]);
    expect(out.medicare.fees).toHaveLength(1);
    expect(out.medicare.fees[0]?.national).toEqual({ non_facility: 228.8, facility: 98.53 });
    expect(out.medicare.notes.join(" ")).toMatch(/QPP file .* 33\.5675/);
    const wrong = await run(["data", "import", "edits", zip, "--into", copy]);
    expect(wrong.exitCode).toBe(2);
  });
});
