import { describe, expect, it } from "vitest";
import { RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

describe("coverage search (e2e, built CLI)", () => {
  it("prints the exact dry-run body of cli.md", async () => {
    const r = await runInProcess(["search", "--code", "CPT:97110", "--state", "CA", "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      method: "POST",
      url: "http://local/v1/policies/filter",
      headers: { "x-api-key": "***", "content-type": "application/json" },
      body: {
        policies: {
          code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
          states: ["CA", "NF", "SF"],
        },
      },
    });
    expect(r.stderr).toBe(
      "--state CA also sends NF (Northern California), SF (Southern California): Medicare's sub-state jurisdictions. Add --exact-state to send only the codes typed.",
    );
  });

  it("rejects bad values before any request, exit 2, loc: msg lines, nothing on stdout", async () => {
    const r = await runInProcess([
      "--data",
      RULES_DATA,
      "search",
      "--limit",
      "500",
      "--state",
      "zz",
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("body.limit: Input should be less than or equal to 100");
    expect(r.stderr).toContain("body.policies.states.0:");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("answers the main job from the rules dataset as JSON", async () => {
    const r = await runInProcess([
      "--data",
      RULES_DATA,
      "search",
      "--code",
      "CPT:97110",
      "--state",
      "CA",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout);
    // CA brings NF, where the Medicare Part B LCD L1 applies (cli.md: states Medicare splits).
    expect(body.data.map((p: { policy_id: string }) => p.policy_id)).toEqual([
      "cms-lcd/L1/2026-07-01",
      "a/pt/2025-01-01",
    ]);
    expect(body).toMatchObject({ limit: 20, offset: 0, has_more: false });
  });
});
