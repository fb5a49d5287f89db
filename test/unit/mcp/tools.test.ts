import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, ROOT } from "../../helpers/cli.js";
import { connectInProcess } from "../../helpers/mcp.js";
import { runInProcess } from "../../helpers/run-cli.js";
import { boundText, CRITERIA_LIMIT, TEXT_LIMIT } from "../../../src/mcp/server.js";
import { inToolTerms } from "../../../src/mcp/tool-terms.js";
import { defineTools } from "../../../src/mcp/tools.js";

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: unknown;
}

let client: Client;
let close: () => Promise<void>;
const TODAY = ["--today", "2026-11-21"];

beforeAll(async () => {
  ({ client, close } = await connectInProcess(TODAY));
});
afterAll(() => close());

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;
const textOf = (r: ToolResult) => r.content.map((c) => c.text).join("\n");

describe("coverage mcp: tools", () => {
  it("lists every tool with an input schema, an output schema and a description", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "search_policies",
      "get_policy",
      "lookup_code",
      "coverage_matrix",
      "policy_versions",
      "diff_policy_versions",
      "recent_updates",
      "check_claim",
      "list_payers",
      "list_lobs",
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.description!.length).toBeGreaterThan(100);
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((t) => t.name === "search_policies")!;
    const limit = (search.inputSchema.properties as Record<string, Record<string, unknown>>).limit!;
    expect(limit).toMatchObject({ minimum: 1, maximum: 100 });
    const lobs = (search.inputSchema.properties as Record<string, { items: { enum: string[] } }>)
      .lobs!;
    expect(lobs.items.enum).toContain("medicare_advantage");
  });

  // Each tool's answer is the matching command's --json, run here the way a user types it.
  it.each([
    [
      "search_policies",
      { codes: ["CPT:97110"], states: ["CA"], limit: 5 },
      "search --code CPT:97110 --state CA --limit 5 --applicability --code-groups",
    ],
    [
      "search_policies",
      { query: "sleep apnea", lobs: ["medicare_advantage"], retired: false, offset: 1 },
      "search --query sleep+apnea --lob medicare_advantage --no-retired --offset 1 --applicability",
    ],
    ["get_policy", { policy_id: "aetna/cpb/0325/2025-06-01" }, "policy aetna/cpb/0325/2025-06-01"],
    ["get_policy", { policy_id: "cms-lcd/L34049" }, "policy cms-lcd/L34049"],
    ["lookup_code", { code: "CPT:97110", states: ["CA"] }, "code CPT:97110 --state CA"],
    [
      "lookup_code",
      { code: "HCPCS:E0601", lobs: ["commercial"], effective_on: "2026-01-01" },
      "code HCPCS:E0601 --lob commercial --effective-on 2026-01-01",
    ],
    [
      "coverage_matrix",
      { code: "CPT:97110", states: ["CA", "TX"] },
      "matrix --code CPT:97110 --state CA --state TX",
    ],
    ["policy_versions", { policy_key: "aetna/cpb/0325" }, "versions aetna/cpb/0325"],
    ["diff_policy_versions", { policy_key: "aetna/cpb/0325" }, "diff aetna/cpb/0325"],
    [
      "diff_policy_versions",
      { old_id: "aetna/cpb/0325/2024-09-01", new_id: "aetna/cpb/0325/2025-06-01" },
      "diff aetna/cpb/0325/2024-09-01 aetna/cpb/0325/2025-06-01",
    ],
    [
      "recent_updates",
      { days: 365, lobs: ["commercial"], limit: 10 },
      "updates --days 365 --lob commercial --limit 10",
    ],
    ["recent_updates", { days: 90, changes: true }, "updates --days 90 --changes"],
    [
      "check_claim",
      { procedure: "CPT:97110", diagnoses: ["ICD10CM:M54.50"], state: "CA" },
      "check --procedure CPT:97110 --diagnosis ICD10CM:M54.50 --state CA",
    ],
    [
      "check_claim",
      {
        procedure: "HCPCS:E0601",
        diagnoses: ["ICD10CM:G47.33", "ICD10CM:E66.01"],
        lob: "medicare_part_b",
        payer: "CMS",
        date: "2026-06-15",
      },
      "check --procedure HCPCS:E0601 --diagnosis ICD10CM:G47.33 --diagnosis ICD10CM:E66.01 --lob medicare_part_b --payer CMS --date 2026-06-15",
    ],
    ["list_payers", { lobs: ["medicaid"] }, "payers --lob medicaid"],
    ["list_lobs", { payers: ["AETNA"], limit: 3 }, "lobs --payer AETNA --limit 3"],
  ])("%s %j answers as `coverage %s --json`", async (tool, args, command) => {
    const argv = command.split(" ").map((w) => w.replace(/\+/g, " "));
    const cli = await runInProcess([...TODAY, ...argv, "--json"]);
    expect(cli.exitCode).toBe(0);
    const result = await call(tool, args);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(JSON.parse(cli.stdout));
    expect(textOf(result)).toMatch(/^Source: the bundled sample data, as of 2026-11-21\./);
  });

  it("says in the text that Medicare LCDs and articles apply only in their contractors' states", async () => {
    const lcd = textOf(await call("lookup_code", { code: "CPT:97110" }));
    expect(lcd).toContain("cms-lcd/L34049");
    expect(lcd).toMatch(/applies only in its contractors' states/);
    const payers = textOf(await call("list_payers", {}));
    expect(payers).not.toMatch(/contractors/);
  });

  it("renders a search with each policy's scope and, for codes, its verdict", async () => {
    const text = textOf(await call("search_policies", { codes: ["CPT:97110"], limit: 3 }));
    expect(text).toMatch(
      /^- \S+ ".+" \[(active|ending|upcoming|retired), .+\]; payers: .+; scope: .+; verdict: (covers|does not cover|mentions|mixed|none)$/m,
    );
  });
});

describe("coverage mcp: errors are tool results with the CLI's message", () => {
  it.each([
    ["a code in the wrong system", "search_policies", { codes: ["CPT:E0601"] }, /HCPCS:E0601/],
    ["a code without its system", "lookup_code", { code: "97110" }, /SYSTEM:CODE|system/i],
    [
      "an unknown policy id",
      "get_policy",
      { policy_id: "aetna/cpb/9999/2025-01-01" },
      /not found/i,
    ],
    ["an unknown key", "policy_versions", { policy_key: "aetna/cpb/9999" }, /aetna\/cpb\/9999/],
    ["a limit over 100", "search_policies", { limit: 101 }, /limit is at most 100/],
    ["a limit over 100 on a list", "list_payers", { limit: 500 }, /limit is at most 100/],
    ["a state not in the list", "lookup_code", { code: "CPT:97110", states: ["ZZ"] }, /states/],
    [
      "a bad date",
      "coverage_matrix",
      { code: "CPT:97110", effective_on: "2026-02-30" },
      /YYYY-MM-DD/,
    ],
    [
      "a diff without ids or key",
      "diff_policy_versions",
      { old_id: "a/b/2024-01-01" },
      /old_id and new_id, or policy_key/,
    ],
    ["days over 365", "recent_updates", { days: 400 }, /365/],
    ["a claim with a bad procedure", "check_claim", { procedure: "CPT:E0601" }, /HCPCS:E0601/],
  ])("%s", async (_what, tool, args, message) => {
    const result = await call(tool, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(message);
  });

  it.each([
    ["search_policies", { payers: ["AETN"] }, ["search", "--payer", "AETN", "--applicability"]],
    ["list_lobs", { payers: ["aetn"] }, ["lobs", "--payer", "aetn"]],
    [
      "get_policy",
      { policy_id: "aetna/cpb/0325/2025-01-01" },
      ["policy", "aetna/cpb/0325/2025-01-01"],
    ],
  ])("%s %j fails or answers as the CLI does", async (tool, args, argv) => {
    // --local: without the notice that the sample data answers (the server says it once).
    const cli = await runInProcess(["--local", ...TODAY, ...argv, "--json"]);
    const result = await call(tool, args);
    expect(Boolean(result.isError)).toBe(cli.exitCode !== 0);
    const spec = defineTools().find((t) => t.name === tool)!;
    if (cli.exitCode !== 0) expect(textOf(result)).toBe(inToolTerms(cli.stderr.trim(), spec));
    else expect(result.structuredContent).toEqual(JSON.parse(cli.stdout));
  });

  it("reads an option-like id as an id, never as a flag", async () => {
    const result = await call("get_policy", { policy_id: "--data=/etc/passwd" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toMatch(/passwd.*(not valid JSON|bad dataset)/);
  });

  it("answers forty concurrent calls without an error", async () => {
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? call("lookup_code", { code: "CPT:97110" })
        : call("search_policies", { codes: ["CPT:97110"], limit: 100 }),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.isError)).toEqual([]);
  });
});

// cli.md, AI assistants: an assistant has the tools and their fields, never the CLI's flags.
const CLI_WORDS =
  /(^|[\s(`'"])--[a-z]|`coverage |\bcoverage (search|policy|code|matrix|payers|lobs|versions|diff|updates|check)\b/m;

describe("coverage mcp: texts in the tools' terms (issue 37 item 4)", () => {
  it.each([
    ["search_policies", { codes: ["CPT:97110"], states: ["CA"], limit: 2 }],
    ["coverage_matrix", { code: "CPT:97110", states: ["CA"] }],
    ["search_policies", { payers: ["ACME"] }],
    ["search_policies", { payers: ["aetn"] }],
    ["list_lobs", { lobs: ["medicaid"], payers: ["CIGNA"], states: ["TX"] }],
    ["get_policy", { policy_id: "cms-lcd/L3404" }],
    ["recent_updates", { payers: ["UHC"], limit: 1 }],
    ["search_policies", { codes: ["CPT:99999"] }],
    ["lookup_code", { code: "CPT:99999" }],
    ["check_claim", { procedure: "CPT:97110", diagnoses: ["ICD10CM:M54.50"], state: "CA" }],
  ])("%s %j: no flag or command in the text", async (tool, args) => {
    const text = textOf(await call(tool, args));
    expect(text).not.toMatch(CLI_WORDS);
  });

  it("names the field and the tool instead of the flag and the command", async () => {
    const payer = textOf(await call("search_policies", { payers: ["AETN"] }));
    expect(payer).toMatch(/payers 'AETN' is not a payer id/);
    expect(payer).toMatch(/Closest payer ids: AETNA; list_payers lists them all\./);
    const widened = textOf(await call("search_policies", { codes: ["CPT:97110"], states: ["CA"] }));
    expect(widened).toContain("State CA also brings NF (Northern California), SF");
    expect(widened).not.toContain("exact");
    const paged = textOf(await call("recent_updates", { payers: ["UHC"], limit: 1 }));
    expect(paged).toContain("ask for the next page with offset 1");
    const lobs = textOf(await call("list_lobs", { payers: ["CIGNA"], states: ["TX"] }));
    expect(lobs).toContain("list_lobs without states lists them too");
    const page = textOf(await call("search_policies", { limit: 2 }));
    expect(page.match(/offset 2/g)).toHaveLength(1);
    const unknown = textOf(await call("get_policy", { policy_id: "cms-lcd/L3404" }));
    expect(unknown).toContain("with search_policies");
  });

  it.each([
    ["search_policies", { states: ["California"] }, "states[0]"],
    ["lookup_code", { code: "CPT:97110", states: ["Texas"] }, "states[0]"],
    ["check_claim", { procedure: "CPT:97110", state: "California" }, "state"],
    ["list_payers", { lobs: ["medcaid"] }, "lobs[0]"],
  ])(
    "%s %j: a state name or a category typo is refused with what it meant",
    async (tool, args, at) => {
      const result = await call(tool, args);
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/is not a (state code|LOB category): did you mean (CA|TX|medicaid)\?/);
      expect(text).toContain(`at ${at}`);
      expect(text).not.toMatch(/"AL"\|"AK"/);
    },
  );

  it("says a policy without codes has none, with no empty heading", async () => {
    const text = textOf(await call("get_policy", { policy_id: "cms-lcd/L34428/2023-05-18" }));
    expect(text).toContain("Code groups: none.");
    expect(text).not.toMatch(/^Code groups:$/m);
  });

  it("says an empty answer once", async () => {
    const search = textOf(await call("search_policies", { codes: ["CPT:99999"] }));
    expect(search.match(/No policies match\./g)).toHaveLength(1);
    const code = textOf(await call("lookup_code", { code: "CPT:99999" }));
    expect(code.match(/No policy lists this code\./g)).toHaveLength(1);
  });
});

describe("coverage mcp: bounds", () => {
  let dir: string;
  let longId: string;
  let big: Awaited<ReturnType<typeof connectInProcess>>;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "coverage-mcp-"));
    const data = JSON.parse(readFileSync(path.join(ROOT, "fixtures", "dataset.json"), "utf8"));
    const policy = data.policies[0];
    policy.criteria_text = "Criteria line of a long policy. ".repeat(10_000);
    policy.files = {};
    longId = policy.policy_id;
    writeFileSync(path.join(dir, "long.json"), JSON.stringify(data));
    big = await connectInProcess(["--data", path.join(dir, "long.json"), ...TODAY]);
  });
  afterAll(() => big.close());

  it("cuts long criteria with a note, in the text and the structured answer", async () => {
    const result = (await big.client.callTool({
      name: "get_policy",
      arguments: { policy_id: longId },
    })) as ToolResult;
    expect(result.isError).toBeFalsy();
    const criteria = (result.structuredContent as { criteria_text: string }).criteria_text;
    expect(criteria.length).toBeLessThan(CRITERIA_LIMIT + 300);
    expect(criteria).toMatch(/cut at 32,000 of 320,000 characters/);
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(text).toMatch(/^Source: local dataset long\.json, as of /);
    expect(text).toMatch(/a tool's answer holds at most that much of it/);
    expect(text).not.toMatch(/--criteria|`coverage /);
  });

  it("keeps any text under 64 KB and says what was left out", () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
    const text = boundText(["Source: test."], lines);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(text).toMatch(/text cut at 64 KB: \d+ more line\(s\)/);
    expect(boundText(["h"], ["a", "b"])).toBe("h\n\na\nb");
  });
});

describe("coverage mcp: a dataset that cannot be read", () => {
  it("is each call's error, naming the file, and the server stays up", async () => {
    const missing = path.join(os.tmpdir(), "coverage-mcp-no-such-dataset.json");
    const { client: c, close: done } = await connectInProcess(["--data", missing]);
    try {
      for (const name of ["list_payers", "list_lobs"]) {
        const result = (await c.callTool({ name, arguments: {} })) as ToolResult;
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain("coverage-mcp-no-such-dataset.json");
      }
      expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await done();
    }
  });
});

describe("coverage mcp: the API key", () => {
  it("never shows the key, in results or errors", async () => {
    const key = "sk-live-0123456789abcdef";
    const env = cleanEnv({ COVERAGE_API_KEY: key });
    // A closed port: every call fails, with the CLI's message about the API.
    const { client: c, close: done } = await connectInProcess(
      ["--api-url", "http://127.0.0.1:9", "--timeout", "2000"],
      env,
    );
    try {
      const result = (await c.callTool({
        name: "list_payers",
        arguments: {},
      })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/127\.0\.0\.1/);
      expect(JSON.stringify(result)).not.toContain(key);
      const { tools } = await c.listTools();
      expect(JSON.stringify(tools)).not.toMatch(/api.?key/i);
    } finally {
      await done();
    }
  });
});
