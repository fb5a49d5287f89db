// A sub-state code brings its state (cli.md, "States that Medicare splits"): a policy filed for
// the whole state applies in each of its parts, in every command and MCP tool with a state.
// Expected answers come from the bundled dataset read here, never from the engine.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { connectInProcess } from "../helpers/mcp.js";
import { runInProcess } from "../helpers/run-cli.js";

interface Dataset {
  as_of: string;
  lobs: Array<{ lob_id: string; payer_id: string; lob: string; state: string | null }>;
  policies: Array<{
    policy_id: string;
    effective_from_date: string;
    effective_to_date: string | null;
    applicability: Array<{ lob_id: string; from: string; to: string | null }>;
    codes: Array<{ code_system: string; code: string }>;
  }>;
}
const data = JSON.parse(
  readFileSync(path.join(ROOT, "fixtures", "dataset.json"), "utf8"),
) as Dataset;
const TODAY = data.as_of;
const STATE_OF: Record<string, string> = {
  NF: "CA",
  SF: "CA",
  DN: "NY",
  QN: "NY",
  UN: "NY",
  EM: "MO",
  WM: "MO",
};
const lobOf = new Map(data.lobs.map((l) => [l.lob_id, l]));
const inEffect = (from: string, to: string | null) => from <= TODAY && (to === null || TODAY < to);

/** The policies in effect today that list the code with a current scope of `lob` in these states (or nationwide). */
function expected(code: string, lob: string, states: readonly string[]): string[] {
  const [system, value] = code.split(":");
  return data.policies
    .filter(
      (p) =>
        inEffect(p.effective_from_date, p.effective_to_date) &&
        p.codes.some((c) => c.code_system === system && c.code === value) &&
        p.applicability.some((a) => {
          const l = lobOf.get(a.lob_id)!;
          return (
            l.lob === lob &&
            inEffect(a.from, a.to) &&
            (l.state === null || states.includes(l.state))
          );
        }),
    )
    .map((p) => p.policy_id)
    .sort();
}

// Each part of a split state, with a code its state's statewide Medicare Part A policies list.
const CASES = Object.keys(STATE_OF).map((part) => [part, STATE_OF[part]!] as const);
const CODE = "CPT:97110";
const LOB = "medicare_part_a";

describe("a sub-state code counts its state's statewide policies", () => {
  it.each(CASES)(
    "the sample has statewide %s (%s) policies the part alone misses",
    (part, whole) => {
      expect(expected(CODE, LOB, [part, whole]).length).toBeGreaterThan(
        expected(CODE, LOB, [part]).length,
      );
    },
  );

  it.each(CASES)("search --state %s finds %s's statewide policies", async (part, whole) => {
    const args = ["search", "--code", CODE, "--lob", LOB, "--effective-on", TODAY, "--json"];
    const run = await runInProcess([...args, "--state", part]);
    expect(run.exitCode, run.stderr).toBe(0);
    const ids = (JSON.parse(run.stdout) as { data: Array<{ policy_id: string }> }).data
      .map((p) => p.policy_id)
      .sort();
    expect(ids).toEqual(expected(CODE, LOB, [part, whole]));
    expect(run.rawStderr).toContain(`--state ${part} also sends ${whole}`);
    const exact = await runInProcess([...args, "--state", part, "--exact-state"]);
    const exactIds = (JSON.parse(exact.stdout) as { data: Array<{ policy_id: string }> }).data
      .map((p) => p.policy_id)
      .sort();
    expect(exactIds).toEqual(expected(CODE, LOB, [part]));
  });

  it.each(CASES)("check --state %s is judged on %s's statewide policies", async (part, whole) => {
    const run = await runInProcess([
      "check",
      "--procedure",
      "97110",
      "--diagnosis",
      "M54.50",
      "--lob",
      LOB,
      "--state",
      part,
      "--json",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.rawStderr).toContain(`--state ${part} also sends ${whole}`);
    const out = JSON.parse(run.stdout) as unknown;
    const ids = [...JSON.stringify(out).matchAll(/"policy_id":"([^"]+)"/g)].map((m) => m[1]);
    expect([...new Set(ids)].sort()).toEqual(expected(CODE, LOB, [part, whole]));
  });

  it.each(CASES)("matrix: the %s column counts %s's statewide policies", async (part, whole) => {
    const run = await runInProcess(["matrix", CODE, "--lob", LOB, "--state", part, "--json"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const m = JSON.parse(run.stdout) as {
      cells: Array<{ payer_id: string; state: string | null; policy_ids: string[] }>;
    };
    const cell = m.cells.find((c) => c.payer_id === "CMS" && c.state === part)!;
    expect([...cell.policy_ids].sort()).toEqual(expected(CODE, LOB, [part, whole]));
  });

  it.each(CASES)("code --state %s lists %s's statewide policies", async (part, whole) => {
    const run = await runInProcess(["code", CODE, "--lob", LOB, "--state", part, "--json"]);
    expect(run.exitCode, run.stderr).toBe(0);
    for (const id of expected(CODE, LOB, [part, whole])) expect(run.stdout).toContain(id);
  });
});

describe("MCP tools with a state", () => {
  let mcp: Awaited<ReturnType<typeof connectInProcess>>;
  beforeAll(async () => {
    mcp = await connectInProcess([]);
  });
  afterAll(async () => mcp.close());

  it.each(CASES)(
    "search_policies states [%s] finds %s's statewide policies",
    async (part, whole) => {
      const r = (await mcp.client.callTool({
        name: "search_policies",
        arguments: { codes: [CODE], lobs: [LOB], states: [part], effective_on: TODAY, limit: 100 },
      })) as { structuredContent?: { data: Array<{ policy_id: string }> } };
      const ids = r.structuredContent!.data.map((p) => p.policy_id).sort();
      expect(ids).toEqual(expected(CODE, LOB, [part, whole]));
    },
  );

  it.each(CASES)(
    "coverage_matrix and check_claim with %s count %s's policies",
    async (part, whole) => {
      const want = expected(CODE, LOB, [part, whole]);
      const m = (await mcp.client.callTool({
        name: "coverage_matrix",
        arguments: { code: CODE, lobs: [LOB], states: [part] },
      })) as {
        structuredContent?: {
          cells: Array<{ payer_id: string; state: string | null; policy_ids: string[] }>;
        };
      };
      const cell = m.structuredContent!.cells.find(
        (c) => c.payer_id === "CMS" && c.state === part,
      )!;
      expect([...cell.policy_ids].sort()).toEqual(want);
      const c = (await mcp.client.callTool({
        name: "check_claim",
        arguments: { procedure: CODE, diagnoses: ["ICD10CM:M54.50"], state: part, lob: LOB },
      })) as { structuredContent?: unknown };
      const ids = [...JSON.stringify(c.structuredContent).matchAll(/"policy_id":"([^"]+)"/g)].map(
        (x) => x[1],
      );
      expect([...new Set(ids)].sort()).toEqual(want);
    },
  );
});

describe("matrix summaries group a state's parts under it", () => {
  it("never says a state has no policy when one of its parts has one", async () => {
    // The sample's Medicare Part B for 97110 is filed under NF and SF only, not CA.
    const partB = expected(CODE, "medicare_part_b", ["CA"]);
    expect(expected(CODE, "medicare_part_b", ["NF"]).length).toBeGreaterThan(partB.length);
    const run = await runInProcess(["matrix", "--code", CODE, "--state", "CA,TX"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const line = run.stdout
      .replace(/\n(?!Varies)/g, " ")
      .split("\n")
      .find((l) => l.includes("Medicare (CMS) medicare_part_b"))!;
    expect(line).toContain("covers in NF SF (parts of CA)");
    expect(line).not.toMatch(/no policy in [^.;]*\bCA\b(?! *\))/);
    const json = await runInProcess(["matrix", "--code", CODE, "--state", "CA,TX", "--json"]);
    const m = JSON.parse(json.stdout) as {
      variation: {
        by_state: Array<{ payer_id: string; lob: string; verdicts: { none?: string[] } }>;
      };
    };
    const row = m.variation.by_state.find(
      (r) => r.payer_id === "CMS" && r.lob === "medicare_part_b",
    )!;
    expect(row.verdicts.none).not.toContain("CA");
    expect(row.verdicts.none).toContain("TX");
  });
});
