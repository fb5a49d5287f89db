import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";

// cli.md: `HCPCS` accepts Level I (CPT-shaped) codes; when such a code finds nothing, one line
// on stderr suggests `CPT:CODE`. The bundled sample lists 97110 as CPT only.
describe("HCPCS: takes Level I codes, and says where they are", () => {
  it.each([
    ["search", ["search", "--code", "HCPCS:97110"]],
    ["code", ["code", "HCPCS:97110"]],
    ["matrix", ["matrix", "--code", "HCPCS:97110"]],
  ])("%s HCPCS:97110: accepted, nothing found, one line suggests CPT:97110", async (_n, args) => {
    const r = await runInProcess(["--json", ...args]);
    expect(r.exitCode).toBe(0);
    const hints = r.stderr.split("\n").filter((l) => l.includes("try CPT:97110"));
    expect(hints).toHaveLength(1);
    expect(hints[0]).toMatch(/HCPCS:97110 found nothing/);
  });

  it("the request carries the code as HCPCS, as typed", async () => {
    const r = await runInProcess(["search", "--code", "hcpcs:97110", "--dry-run"]);
    expect(JSON.parse(r.stdout).body).toEqual({
      policies: { code_refs: { refs: [{ code_system: "HCPCS", codes: ["97110"] }] } },
    });
  });

  it.each([
    ["a Level II code that finds nothing", ["search", "--code", "HCPCS:E9999"]],
    ["the same code as CPT (found)", ["search", "--code", "CPT:97110"]],
    ["--quiet", ["--quiet", "search", "--code", "HCPCS:97110"]],
  ])("no line: %s", async (_n, args) => {
    const r = await runInProcess(["--json", ...args]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain("try CPT:");
  });

  it("a CPT: code of HCPCS Level II shape still suggests HCPCS", async () => {
    const r = await runInProcess(["search", "--code", "CPT:E0601"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/did you mean HCPCS:E0601\?/);
  });
});
