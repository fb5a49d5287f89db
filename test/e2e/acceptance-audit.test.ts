import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { connectInProcess } from "../helpers/mcp.js";
import { runInProcess } from "../helpers/run-cli.js";
import { startServe, type ServeProcess } from "../helpers/server.js";

// The acceptance audit of cli.md and rules.md on data of its own (test/fixtures/audit: as_of
// a leap day, 2024-02-29, far from the real date; windows that touch; a link that starts later;
// a payer with a LOB and no policy; sub-state LOBs), through the CLI in process, locally and
// through `coverage serve`. One block per divergence found and fixed.

const DATA = path.join(ROOT, "test", "fixtures", "audit", "dataset.json");
const KEY = "acceptance-audit-key";
let server: ServeProcess;

beforeAll(async () => {
  server = await startServe(["--data", DATA, "--quiet"], { COVERAGE_SERVE_KEY: KEY });
});
afterAll(async () => {
  await server?.stop();
});

const local = (args: string[]) => runInProcess(["--data", DATA, "-q", ...args]);
const remote = (args: string[]) =>
  runInProcess(["--api-url", server.url, "-q", ...args], { env: { COVERAGE_API_KEY: KEY } });

describe("check: a line without a date is checked on the engine's today, over HTTP too", () => {
  // The dataset's as_of (2024-02-29) is the API's today; this machine's clock is years later,
  // when the NF policy's predecessor and the NY link that starts in 2025 would answer instead.
  it.each([
    ["--procedure", "CPT:97110", "--diagnosis", "ICD10CM:M54.50", "--state", "NF", "--json"],
    ["--procedure", "97110", "--diagnosis", "M5450", "--state", "NY", "--format", "csv"],
    ["--procedure", "97110", "--diagnosis", "M54.50", "--state", "TX", "--format", "ndjson"],
  ])("check %s %s ... answers as the local engine does", async (...args) => {
    const [here, there] = await Promise.all([
      local(["check", ...args]),
      remote(["check", ...args]),
    ]);
    expect(here.exitCode).toBe(0);
    expect(here.stdout).toContain("2024-02-29");
    expect(there.stdout).toBe(here.stdout);
    expect(there.exitCode).toBe(0);
  });

  it("--dry-run still sends nothing (the date is this machine's guess)", async () => {
    const r = await runInProcess(
      ["--api-url", "http://127.0.0.1:9", "check", "--procedure", "97110", "--dry-run"],
      { env: { COVERAGE_API_KEY: KEY } },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('"effective_date"');
  });
});

describe("CSV: summary as plain text wherever it is printed", () => {
  it.each([
    ["policy", "cms-lcd/L1/2024-02-29"],
    ["policy", "cms-lcd/L1"],
    ["search", "therapy"],
  ])("%s %s --format csv", async (...args) => {
    const r = await local([...args, "--format", "csv"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Therapy exercise coverage");
    expect(r.stdout).not.toContain("<b>");
    // JSON keeps the data exact.
    expect((await local([...args, "--json"])).stdout).toContain("<b>exercise</b>");
  });
});

describe("ids in any case: a payer with LOBs and no policy (not in /v1/payers)", () => {
  // `coverage lobs` lists NOPOL_commercial_US; its payer is found in whatever case it is typed.
  it.each([
    ["NOPOL", "local"],
    ["nopol", "local"],
    ["Nopol", "remote"],
  ] as const)("lobs --payer %s (%s) lists its LOB", async (payer, where) => {
    const r = await (where === "local" ? local : remote)(["lobs", "--payer", payer, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: [{ lob_id: "NOPOL_commercial_US" }] });
  });

  it("a payer id that no LOB has either is still exit 2 with the closest ids", async () => {
    const r = await local(["lobs", "--payer", "nopo"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'nopo' is not a payer id");
  });
});

describe("scopes follow the applicability the request counted (docs/decisions.md)", () => {
  // aetna/CPB-2: commercial TX until 2024-01-01, medicaid TX since; cms-lcd/L1/2023-01-01 retired
  // on today (2024-02-29) with its NF link.
  it.each([
    { args: [], id: "aetna/CPB-2/2020-01-01", scopes: "AETNA medicaid TX" },
    {
      args: ["--effective-on", "2023-06-01"],
      id: "aetna/CPB-2/2020-01-01",
      scopes: "AETNA commercial TX",
    },
    { args: [], id: "cms-lcd/L1/2023-01-01", scopes: "" },
    { args: ["--retired"], id: "cms-lcd/L1/2023-01-01", scopes: "CMS medicare_part_b NF" },
    { args: ["--payer", "CIGNA", "--lob", "medicare_part_b"], id: undefined, scopes: undefined },
  ])(
    "search $args: $id has scopes '$scopes', locally and through serve",
    async ({ args, id, scopes }) => {
      const search = [
        "search",
        ...args,
        "--limit",
        "100",
        "--fields",
        "policy_id,scopes,status",
        "--format",
        "csv",
      ];
      const [here, there] = await Promise.all([local(search), remote(search)]);
      expect(there.stdout).toBe(here.stdout);
      // RFC 4180: CRLF ends each record.
      const [header, ...rows] = here.stdout.split("\r\n").map((line) => line.split(","));
      expect(header).toEqual(["policy_id", "scopes", "status"]);
      if (id === undefined) return expect(rows).toEqual([]);
      expect(rows.find((r) => r[0] === id)?.[1]).toBe(scopes);
    },
  );
});

describe("nothing fails silently: an empty answer says so on stderr (CSV keeps its header)", () => {
  it.each([
    {
      args: ["search", "--payer", "CIGNA", "--lob", "medicare_part_b"],
      says: "No policies match.",
    },
    {
      args: ["search", "--offset", "100", "--format", "csv"],
      says: "No policies match.",
      csv: "policy_id,",
    },
    { args: ["payers", "--lob", "medicare_part_d"], says: "No payers match." },
    {
      args: ["lobs", "--state", "WY", "--format", "csv"],
      says: "No lines of business match.",
      csv: "lob_id,",
    },
    { args: ["updates", "--days", "1", "--today", "2030-01-01"], says: "in the last 1 day." },
    { args: ["updates", "--days", "2", "--today", "2030-01-01"], says: "in the last 2 days." },
  ])("$args", async ({ args, says, csv }) => {
    const r = await runInProcess(["--data", DATA, ...args]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(says);
    if (csv) expect(r.stdout.startsWith(csv)).toBe(true);
    else expect(r.stdout).toBe("");
  });
});

describe("code: a version in effect whose only link starts later names no scope, and says so", () => {
  // zed/Z1/2024-02-01 covers 97110; its one link (ZED medicare_advantage NY) starts 2025-01-01.
  it.each([
    { args: [], says: "no payer's scope in effect on 2024-02-29" },
    { args: ["--effective-on", "2025-01-01"], says: "aardvark Health: medicare_advantage · NY" },
  ])("code CPT:97110 $args", async ({ args, says }) => {
    const r = await local(["code", "CPT:97110", ...args]);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    const at = lines.findIndex((l) => l.includes("zed/Z1/2024-02-01"));
    expect(lines[at + 1]?.trim()).toBe(says);
  });
});

describe("check: a code in the wrong column is named, line by line, and skipped", () => {
  it.each([
    { line: "ICD10CM:M54.50,M54.50", says: "'ICD10CM:M54.50' is an ICD10CM code; a procedure is" },
    { line: "97110,CPT:97112", says: "'CPT:97112' is a CPT code; a diagnosis is ICD10CM" },
  ])("$line", async ({ line, says }) => {
    const r = await runInProcess(["--data", DATA, "check", "--input", "-", "--format", "csv"], {
      input: `procedure,diagnosis\n${line}\n`,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`stdin, line 2, column`);
    expect(r.stderr).toContain(says);
  });
});

describe("the same questions locally and through coverage serve: identical answers", () => {
  // Leap-day windows, sub-state scopes, a LOB-only payer, ids in another case, empty pages.
  it.each([
    ["search", "--code", "CPT:97110", "--state", "CA"],
    ["search", "--code", "ICD-10-CM: m5450 ", "--applicability", "--code-groups", "--json"],
    ["search", "--code", "CPT:97110", "--code", "ICD10CM:G47.33", "--match", "all", "--json"],
    ["search", "--effective-on", "2024-02-29", "--payer", "cms", "--format", "csv"],
    ["search", "--effective-start", "2024-12-31", "--format", "ndjson"],
    ["search", "--retired", "--applicability", "--json"],
    ["search", "--state", "DN", "--lob", "medicaid", "--json"],
    ["search", "--lob-id", "aetna_commercial_", "--json"],
    ["search", "therapy", "--sort", "relevance", "--format", "csv"],
    ["search", "--sort", "policy_number_desc", "--limit", "3", "--offset", "8", "--json"],
    ["search", "--payer", "AETN"],
    ["policy", "multi/M1/2024-01-01", "--json"],
    ["policy", "cms-lcd/L1"],
    ["policy", "cms-lcd/L1/2024-02-28"],
    ["payers", "--lob", "medicaid", "--json"],
    ["lobs", "--state", "NF", "--format", "csv"],
    ["updates", "--days", "60", "--json"],
    ["updates", "--days", "60", "--payer", "aetna", "--format", "csv"],
    ["code", "CPT:97110", "--state", "NY"],
    ["matrix", "--code", "CPT:97110", "--json"],
    [
      "check",
      "--procedure",
      "E0601",
      "--diagnosis",
      "G47.33",
      "--state",
      "SF",
      "--date",
      "2024-03-01",
    ],
  ])("%s %s %s %s", async (...args) => {
    const [here, there] = await Promise.all([local(args), remote(args)]);
    expect(there.stderr).toBe(here.stderr);
    expect(there.stdout).toBe(here.stdout);
    expect(there.exitCode).toBe(here.exitCode);
  });
});

describe("rules.md's filter through search, on touching windows and a leap day (worked by hand)", () => {
  const L1_OLD = "cms-lcd/L1/2023-01-01"; // [2023-01-01, 2024-02-29), NF link alike
  const L1 = "cms-lcd/L1/2024-02-29"; // from today, NF
  const L2 = "cms-lcd/L2/2024-03-01"; // upcoming, CA link from its start
  const CPB1 = "aetna/CPB 1/2023-06-01"; // ends 2024-12-31 (retired to the API), AETNA nationwide
  const CPB2 = "aetna/CPB-2/2020-01-01"; // commercial TX until 2024-01-01, then medicaid TX
  const CIGNA = "cigna/a/b/c/2022-05-05"; // CIGNA commercial US and CMS part B NF
  const Z1 = "zed/Z1/2024-02-01"; // its only link (ZED medicare_advantage NY) starts 2025-01-01
  const Z2 = "zed/Z2/2024-02-15"; // ZED medicaid DN
  const M1 = "multi/M1/2024-01-01"; // AETNA commercial US and TX, CIGNA, CMS A and B in CA
  it.each([
    { args: ["--retired"], ids: [CPB1, L1_OLD] },
    { args: ["--effective-on", "2024-02-29"], without: [L1_OLD, L2], with: [L1, CPB1] },
    { args: ["--effective-on", "2024-02-28"], without: [L1, L2], with: [L1_OLD] },
    { args: ["--effective-start", "2024-12-31"], without: [CPB1, L1_OLD], with: [L2] },
    { args: ["--payer", "AETNA", "--lob", "commercial", "--state", "TX"], ids: [CPB1, M1] },
    {
      args: [
        "--payer",
        "AETNA",
        "--lob",
        "commercial",
        "--state",
        "TX",
        "--effective-on",
        "2023-06-01",
      ],
      ids: [CPB1, CPB2],
    },
    { args: ["--payer", "CIGNA", "--lob", "medicare_part_b"], ids: [] },
    { args: ["--payer", "CMS", "--state", "NF"], ids: [CIGNA, L1, L2, M1] },
    { args: ["--payer", "CMS", "--state", "NF", "--exact-state"], ids: [CIGNA, L1] },
    { args: ["--payer", "ZED", "--state", "NY"], ids: [Z1, Z2] },
    { args: ["--payer", "ZED", "--state", "DN", "--exact-state"], ids: [Z2] },
    { args: ["--lob-id", "AETNA_commercial_"], ids: [CPB1, M1] },
    { args: ["--code", "ICD10CM:G4733", "--relationship", "does-not-cover"], ids: [L1] },
    { args: ["--code", "CPT:97110", "--code", "ICD10CM:g47.33", "--match", "all"], ids: [L1, M1] },
    { args: ["--code", "HCPCS-MODIFIER:lt"], ids: [CPB2] },
  ])("search $args", async ({ args, ids, with: present = [], without = [] }) => {
    const r = await local([
      "search",
      ...args,
      "--sort",
      "policy_id_asc",
      "--limit",
      "100",
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    const got = (JSON.parse(r.stdout) as { data: Array<{ policy_id: string }> }).data.map(
      (p) => p.policy_id,
    );
    if (ids) expect(got).toEqual([...ids].sort());
    for (const id of present) expect(got).toContain(id);
    for (const id of without) expect(got).not.toContain(id);
  });
});

describe("an unknown policy id or key: exit 4 with the closest keys (those that sort beside it)", () => {
  it.each([
    { args: ["policy", "cms-lcd/L3/2024-01-01"], near: "cms-lcd/L1, cms-lcd/L2" },
    { args: ["versions", "zed/Z3"], near: "zed/Z1, zed/Z2" },
    { args: ["diff", "multi/M2"], near: "multi/M1" },
    { args: ["download", "cms-lcd/L9/2024-01-01", "--url-only"], near: "cms-lcd/L1, cms-lcd/L2" },
    { args: ["policy", "nothing/like/2024-01-01"], near: undefined },
  ])("$args", async ({ args, near }) => {
    const [here, there] = await Promise.all([local(args), remote(args)]);
    expect(here.exitCode).toBe(4);
    if (near) expect(here.stderr).toContain(`Closest policy keys: ${near};`);
    else expect(here.stderr).not.toContain("Closest");
    expect(there.stderr).toBe(here.stderr);
    expect(there.exitCode).toBe(4);
  });
});

describe("a state code in lower case where none is upper-cased (--body) is named, not its neighbours", () => {
  it.each([
    ["nf", "'nf' is not a state code: did you mean NF?"],
    ["cnmi", "'cnmi' is not a state code: did you mean CNMI?"],
    ["ZZ", "'ZZ' is not a state code: did you mean AZ"],
  ])("states [%s]", async (state, says) => {
    const r = await runInProcess(["--data", DATA, "search", "--body", "-"], {
      input: JSON.stringify({ policies: { states: [state] } }),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(says);
  });
});

describe("MCP: a field no tool has is refused, not silently dropped", () => {
  // `state` is lookup_code's `states` misspelt; `exact` no field at all.
  it.each([
    ["search_policies", { codes: ["CPT:97110"], states: ["NF"], exact: true }, "exact"],
    ["lookup_code", { code: "CPT:97110", state: "NF" }, "state"],
    ["search_policies", { codes: ["CPT:97110"], states: ["NF"] }, undefined],
  ])("%s %j", async (name, args, refused) => {
    const mcp = await connectInProcess(["--data", DATA]);
    try {
      const r = (await mcp.client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(Boolean(r.isError)).toBe(refused !== undefined);
      if (refused) expect(r.content[0]!.text).toContain(`"${refused}"`);
    } finally {
      await mcp.close();
    }
  });
});

describe("MCP: exact_state sends the states as given, as --exact-state does", () => {
  // NF brings CA: L2 (CMS part B in CA, from 2024-03-01) is found through CA only.
  it.each([
    ["search_policies", { states: ["NF"], effective_on: "2024-03-01" }, true],
    ["search_policies", { states: ["NF"], effective_on: "2024-03-01", exact_state: true }, false],
    ["lookup_code", { code: "HCPCS:E0601", states: ["NF"], effective_on: "2024-03-01" }, true],
    [
      "lookup_code",
      { code: "HCPCS:E0601", states: ["NF"], effective_on: "2024-03-01", exact_state: true },
      false,
    ],
  ])("%s %j", async (name, args, withCa) => {
    const mcp = await connectInProcess(["--data", DATA]);
    try {
      const r = (await mcp.client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent: unknown;
      };
      expect(r.isError).toBeFalsy();
      expect(JSON.stringify(r.structuredContent).includes("cms-lcd/L2/2024-03-01")).toBe(withCa);
    } finally {
      await mcp.close();
    }
  });
});
