import { mkdtempSync, copyFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULES_DATA, runCoverage } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

describe("the in-process runner", () => {
  it("gives the same stdout, stderr and exit code as the built CLI in a process", async () => {
    for (const args of [
      ["search", "--code", "CPT:97110", "--state", "CA"],
      ["search", "--code", "CPT:97110", "--json"],
      ["search", "--limit", "0"],
      ["policy", "no/such/2020-01-01"],
    ]) {
      const [inside, spawned] = [await runInProcess(args), await runCoverage(args)];
      expect({ args, ...pick(inside) }).toEqual({ args, ...pick(spawned) });
    }
  });

  it("reads stdin", async () => {
    const body = JSON.stringify({ policies: { payer_ids: ["CMS"] }, limit: 1 });
    const r = await runInProcess(["search", "--body", "-", "--json"], { input: body });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ limit: 1 });
  });

  it("passes the environment and keeps the user's COVERAGE_* out", async () => {
    process.env.COVERAGE_TODAY = "not a date";
    try {
      const ok = await runInProcess(["updates", "--json"]);
      expect(ok.exitCode).toBe(0);
    } finally {
      delete process.env.COVERAGE_TODAY;
    }
    const bad = await runInProcess(["updates"], { env: { COVERAGE_TODAY: "2026-13-01" } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("COVERAGE_TODAY");
  });

  it("runs in the given folder and gives each run its own config folder", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-cwd-"));
    copyFileSync(RULES_DATA, path.join(dir, "data.json"));
    const r = await runInProcess(["--data", "data.json", "payers", "--json"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(process.cwd()).not.toBe(dir);
    const a = await runInProcess(["config", "path"]);
    const b = await runInProcess(["config", "path"]);
    expect(a.stdout).not.toBe(b.stdout);
  });
});

function pick(r: { exitCode?: number; stdout: unknown; stderr: unknown }) {
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}
