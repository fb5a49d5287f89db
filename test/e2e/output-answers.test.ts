import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";

// cli.md Output: "A scope is shown with its payer" and "Status words", through the CLI on the
// bundled sample (as_of 2026-11-21), in the test's own process.

const csvOf = (text: string) => parse(text, { columns: true }) as Array<Record<string, string>>;

describe("each scope beside its own payer", () => {
  it("search CSV: the scopes column holds sorted PAYER_ID lob STATE triples, US for nationwide", async () => {
    const r = await runInProcess(["-q", "search", "--code", "CPT:97110", "--format", "csv"]);
    expect(r.exitCode).toBe(0);
    const rows = csvOf(r.stdout);
    const msk = rows.find((row) => row.policy_id === "evicore/msk/therapy-services/2026-07-01");
    expect(msk?.scopes).toBe("CENTENE medicaid TX;CIGNA commercial US;CIGNA individual_aca TX");
    expect(Object.keys(rows[0] ?? {})).not.toContain("lobs");
    expect(Object.keys(rows[0] ?? {})).not.toContain("states");
  });

  it("code --json: each policy's scopes paired, the applicability items kept", async () => {
    // No --state: a state narrows the scopes shown to its own (views-agree.test.ts).
    const r = await runInProcess(["-q", "code", "HCPCS:E0601", "--json"]);
    const report = JSON.parse(r.stdout) as {
      groups: Array<{ policies: Array<Record<string, unknown>> }>;
    };
    const sleep = report.groups[0]?.policies.find(
      (p) => p.policy_id === "evicore/sleep-disorder-management/2026-01-01",
    );
    expect(sleep?.scopes).toBe(
      "CENTENE medicaid FL;CIGNA commercial US;CIGNA individual_aca FL;HUMANA medicaid KY",
    );
    expect(sleep?.payer_scopes).toEqual([
      expect.objectContaining({ payer_id: "CENTENE", scope: "medicaid · FL" }),
      expect.objectContaining({
        payer_id: "CIGNA",
        scope: "commercial · nationwide; individual_aca · FL",
      }),
      expect.objectContaining({ payer_id: "HUMANA", scope: "medicaid · KY" }),
    ]);
    expect(Array.isArray(sleep?.applicability)).toBe(true);
    expect(sleep).not.toHaveProperty("state");
  });

  it("code table: one line per payer, Humana never beside Medicare Part B", async () => {
    const r = await runInProcess(["-q", "code", "HCPCS:E0601"], {
      env: { COLUMNS: "120", NO_COLOR: "1" },
    });
    expect(r.stdout).toContain("    Humana: medicare_advantage · nationwide\n");
    expect(r.stdout).toContain("    Medicare (CMS): medicare_part_b · nationwide\n");
    expect(r.stdout).toContain("    Humana: medicaid · KY\n");
  });

  it("code CSV: scopes and a status column (no state column)", async () => {
    const r = await runInProcess(["-q", "code", "ICD10CM:E11.9", "--format", "csv"]);
    const rows = csvOf(r.stdout);
    expect(Object.keys(rows[0] ?? {})).toContain("status");
    expect(Object.keys(rows[0] ?? {})).not.toContain("state");
    expect(rows.find((row) => row.policy_id === "aetna/cpb/0070/2025-01-01")).toMatchObject({
      scopes: "AETNA commercial US",
      status: "ending",
    });
  });
});

describe("status words on the engine's today", () => {
  // aetna/cpb/0070/2025-01-01 runs until 2026-12-01; its successor starts that day.
  it.each([
    ["2024-06-01", "upcoming", "upcoming"],
    ["2026-11-21", "ending", "upcoming"],
    ["2026-11-30", "ending", "upcoming"],
    ["2026-12-01", undefined, "active"],
  ])("on %s: 0070/2025-01-01 %s, 0070/2026-12-01 %s", async (today, old, next) => {
    const r = await runInProcess([
      "-q",
      "--today",
      today,
      "search",
      "--payer",
      "AETNA",
      "--all",
      "--format",
      "csv",
      "--fields",
      "policy_id,status",
    ]);
    const rows = csvOf(r.stdout);
    const status = (id: string) => rows.find((row) => row.policy_id === id)?.status;
    // Once ended, the old version has no current links (rules.md Filter 3): not listed.
    expect(status("aetna/cpb/0070/2025-01-01")).toBe(old);
    expect(status("aetna/cpb/0070/2026-12-01")).toBe(next);
    expect(rows.map((row) => row.status)).not.toContain("retired");
  });

  it("no table calls a version in effect today retired; the end date beside the word", async () => {
    const code = await runInProcess(["-q", "code", "ICD10CM:E11.9"], { env: { NO_COLOR: "1" } });
    expect(code.stdout).toContain("  aetna/cpb/0070/2025-01-01  ending  ends 2026-12-01\n");
    expect(code.stdout).toContain("  cms-article/A52464/2026-10-01  ending  ends 2027-01-01\n");
    expect(code.stdout).not.toContain("retired");
    const policy = await runInProcess(["-q", "policy", "cms-article/A52464/2026-10-01"], {
      env: { NO_COLOR: "1" },
    });
    expect(policy.stdout).toMatch(/^Status\s+ending ends 2027-01-01$/m);
    const versions = await runInProcess(["-q", "versions", "aetna/cpb/0070", "--json"]);
    expect(
      (JSON.parse(versions.stdout) as { versions: Array<{ status: string }> }).versions.map(
        (v) => v.status,
      ),
    ).toEqual(["ending", "upcoming"]);
  });
});
