import { describe, expect, it } from "vitest";
import { runCoverage } from "../helpers/cli.js";

// Every other check of rules, flags and formats runs the CLI in process (test/helpers/run-cli.ts);
// these run the built bundle once per command, as a user's shell would.
describe("each command answers through the built bundle (one process each)", () => {
  it.each([
    [["search", "--code", "CPT:97110", "--state", "CA"]],
    [["policy", "cms-ncd/240.4/2008-03-13"]],
    [["payers", "--lob", "medicaid"]],
    [["lobs", "--payer", "CIGNA", "--state", "TX"]],
    [["updates", "--days", "30"]],
    [["code", "HCPCS:E0601", "--state", "NF"]],
    [["matrix", "--code", "CPT:97110", "--state", "CA,TX"]],
    [["versions", "cms-lcd/L33718"]],
    [["diff", "cms-lcd/L33718"]],
    [["download", "cms-lcd/L33718/2026-11-01", "--text", "-o", "-"]],
    [["health"]],
    [["config", "path"]],
    [["completion", "bash"]],
    [["data", "info"]],
    [["help", "search"]],
  ])("coverage %j", async (args) => {
    const r = await runCoverage(args);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stderr).not.toMatch(/\bat .*\.(c?js|ts):\d+/);
  });
});
