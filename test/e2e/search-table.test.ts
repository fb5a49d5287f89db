import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import {
  envelope,
  json,
  startScripted,
  startServe,
  type Scripted,
  type ServeProcess,
} from "../helpers/server.js";

const MAIN_JOB = ["search", "--code", "CPT:97110", "--state", "CA"];
const plain = (columns: number) => ({ COLUMNS: String(columns), NO_COLOR: "1" });

describe("the search table answers the question (bundled data)", () => {
  it.each([80, 120])("the main job at %i columns", async (columns) => {
    const r = await runInProcess(["-q", ...MAIN_JOB], { env: plain(columns) });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split("\n");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
    expect(r.stdout).toMatchSnapshot();
  });

  it("each scope beside its own payer, the verdict; the status column is STATUS, not STATE", async () => {
    const r = await runInProcess(["-q", ...MAIN_JOB], { env: plain(200) });
    const [header] = r.stdout.split("\n");
    expect(header).toMatch(/^POLICY ID\s+TITLE\s+NUMBER\s+PAYER: SCOPE\s+VERDICT\s+STATUS\s+FROM$/);
    expect(header).not.toMatch(/\bSTATE\b/);
    // At 120 columns (the stacked layout), one line per payer with only its own scopes:
    // evicore's MSK policy gives Cigna individual_aca in TX, never Centene.
    const wide = await runInProcess(["-q", ...MAIN_JOB], { env: plain(120) });
    expect(wide.stdout).toMatch(
      /^ {2}L34049 +Medicare \(CMS\): medicare_part_a · CA NV; medicare_part_b · HI NF +covers +active/m,
    );
    expect(wide.stdout).toMatch(
      /^ {2}MSK-THERAPY V2.0.2026 +Centene \(Ambetter, Wellcare, state Medicaid plans\): medicaid · TX +covers/m,
    );
    expect(wide.stdout).toMatch(
      /^ {25}Cigna Healthcare: commercial · nationwide; individual_aca · TX$/m,
    );
  });

  it("policy ids never wrap: each is whole at the start of a line, even at 60 columns", async () => {
    const ids = await runInProcess(["-q", "--json", ...MAIN_JOB]);
    const r = await runInProcess(["-q", ...MAIN_JOB], { env: plain(60) });
    const starts = new Set(r.stdout.split("\n").map((l) => l.split("  ")[0]));
    for (const p of JSON.parse(ids.stdout).data as Array<{ policy_id: string }>)
      expect(starts).toContain(p.policy_id);
  });

  it("--json is the API's body for the user's request (no applicability or code groups)", async () => {
    const r = await runInProcess(["-q", "--json", ...MAIN_JOB]);
    const body = JSON.parse(r.stdout) as { data: Array<Record<string, unknown>> };
    expect(body.data.length).toBeGreaterThan(0);
    for (const p of body.data) expect([p.applicability, p.code_groups]).toEqual([null, null]);
  });

  it("--applicability and --code-groups show their data in the table", async () => {
    const r = await runInProcess(
      ["-q", ...MAIN_JOB, "--applicability", "--code-groups", "--limit", "1"],
      { env: plain(200) },
    );
    expect(r.stdout.split("\n")[0]).toMatch(/APPLICABILITY\s+CODE GROUPS$/);
    expect(r.stdout).toContain("Humana · medicaid · KY");
    expect(r.stdout).toContain("covers CPT 97110 97112");
  });

  it("--code with a relationship the policy does not give it: does not cover", async () => {
    const r = await runInProcess(
      ["-q", "search", "--code", "CPT:97014", "--relationship", "does-not-cover", "--limit", "1"],
      { env: plain(200) },
    );
    expect(r.stdout).toMatch(/\bdoes not cover\b/);
  });
});

describe("what the client sends for a table (scripted server)", () => {
  let server: Scripted;
  const item = {
    policy_id: "x/one/2026-01-01",
    policy_number: "X-1",
    title: "One",
    effective_from_date: "2026-01-01",
    effective_to_date: null,
    file_url: "https://example.org/x.pdf",
    file_type: "pdf",
    listing_url: "https://example.org/",
    summary: null,
    score: null,
    applicability: [
      { payer_ids: ["X"], payer_names: ["X Health"], lobs: ["medicare_part_b"], state: "CA" },
      { payer_ids: ["X"], payer_names: ["X Health"], lobs: ["medicare_part_b"], state: "NF" },
    ],
    code_groups: [{ code_system: "CPT", relationship: "COVERS", category: null, codes: ["97110"] }],
  };
  beforeAll(async () => {
    server = await startScripted((_req, res) => json(res, 200, envelope([item], 20, 0, false)));
  });
  afterAll(() => server.close());
  afterEach(() => void server.requests.splice(0));
  const remote = (args: string[]) =>
    runInProcess(["--api-url", server.url, ...args], {
      env: { ...plain(120), COVERAGE_API_KEY: "k-123456" },
    });

  it("table: the same request with include_applicability and include_code_groups", async () => {
    const r = await remote(MAIN_JOB);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({
      policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] }, states: ["CA"] },
      include_applicability: true,
      include_code_groups: true,
    });
    expect(r.stdout).toMatch(/X Health: medicare_part_b · CA NF\s+covers/);
  });

  it.each([["--json"], ["--format", "ndjson"]])("%s: exactly the user's request", async (...f) => {
    const r = await remote([...MAIN_JOB, ...f]);
    expect(r.exitCode).toBe(0);
    expect(server.requests[0]?.body).toBe(
      '{"policies":{"code_refs":{"refs":[{"code_system":"CPT","codes":["97110"]}]},"states":["CA"]}}',
    );
  });

  it("--dry-run prints the user's request, not the widened one", async () => {
    const r = await remote([...MAIN_JOB, "--dry-run"]);
    expect(JSON.parse(r.stdout).body).toEqual({
      policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] }, states: ["CA"] },
    });
    expect(server.requests).toHaveLength(0);
  });

  it("without codes: no code groups asked for (no verdict column)", async () => {
    const r = await remote(["search", "--state", "CA"]);
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({
      policies: { states: ["CA"] },
      include_applicability: true,
    });
    expect(r.stdout).not.toContain("VERDICT");
  });

  it("CSV: flat columns for payers, scopes paired with their payer, status and the verdict", async () => {
    const r = await remote([...MAIN_JOB, "--format", "csv"]);
    const [header, row] = r.stdout.split("\r\n");
    expect(header).toBe(
      "policy_id,policy_number,title,effective_from_date,effective_to_date,file_url,file_type,listing_url,summary,payer_ids,payer_names,scopes,status,verdict",
    );
    expect(row).toMatch(/,X,X Health,X medicare_part_b CA;X medicare_part_b NF,\w+,covers$/);
    expect(r.stdout).not.toContain("{");
  });
});

describe("words that match nothing say so", () => {
  it("a stderr line; the list shows what passed the other filters, the score blank", async () => {
    const r = await runInProcess(["search", "zzqxv", "--lob", "medicare_part_b", "--limit", "3"], {
      env: plain(200),
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'nothing matched the words "zzqxv": the list shows what passed the other filters',
    );
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/\bSCORE$/);
    expect(lines.length).toBeGreaterThan(1);
    // Blank: the lines end at the last date column, no score after it.
    for (const line of lines.slice(1)) expect(line).not.toMatch(/\d\.\d\d$/);
  });

  it("words that match: no such line", async () => {
    const r = await runInProcess(["search", "therapy", "--limit", "3"], { env: plain(200) });
    expect(r.stderr).not.toContain("nothing matched");
    expect(r.stdout).toMatch(/\d\.\d\d$/m);
  });

  it("--help says words rank and do not filter", async () => {
    const r = await runInProcess(["search", "--help"], { env: plain(200) });
    expect(r.stdout.replace(/\s+/g, " ")).toContain(
      "words full-text words (same as --query): they rank the results, they never filter them",
    );
  });
});

describe("--fields", () => {
  it("picks the table columns, in the order given", async () => {
    const r = await runInProcess(
      ["-q", ...MAIN_JOB, "--fields", "policy_number,verdict", "--fields", "states"],
      { env: plain(120) },
    );
    expect(r.exitCode).toBe(0);
    const [header, first] = r.stdout.split("\n");
    expect(header).toMatch(/^NUMBER\s+VERDICT\s+STATES$/);
    expect(first).toMatch(/^HUM-0410-019\s+covers\s+nationwide KY$/);
  });

  it("picks the CSV columns", async () => {
    const r = await runInProcess([
      "-q",
      ...MAIN_JOB,
      "--fields",
      "policy_id,lobs",
      "--format",
      "csv",
    ]);
    const rows = r.stdout.split("\r\n");
    expect(rows[0]).toBe("policy_id,lobs");
    expect(rows[1]).toBe("humana/HUM-0410/2024-08-22,medicare_advantage;medicaid");
  });

  it.each([["--json"], ["--format", "ndjson"]])("%s: the keys of each item", async (...f) => {
    const r = await runInProcess(["-q", ...MAIN_JOB, "--fields", "title,policy_id", ...f]);
    expect(r.exitCode).toBe(0);
    const items =
      f[0] === "--json"
        ? (JSON.parse(r.stdout) as { data: unknown[] }).data
        : r.stdout.split("\n").map((l) => JSON.parse(l) as unknown);
    expect(Object.keys(items[0] as object)).toEqual(["title", "policy_id"]);
  });

  it.each([
    { format: "table", bad: "bogus", lists: "policy_id, policy_number, title, payer_names" },
    { format: "json", bad: "scope", lists: "policy_id, policy_number, title, effective_from_date" },
  ])("a bad name ($format) is exit 2 and lists the valid ones", async ({ format, bad, lists }) => {
    const r = await runInProcess([...MAIN_JOB, "--fields", `policy_id,${bad}`, "--format", format]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`'${bad}' is not among the`);
    expect(r.stderr).toContain(lists);
    expect(r.stdout).toBe("");
  });

  it.each([
    { args: ["payers", "--fields", "display_name"], header: "NAME", csv: "display_name" },
    {
      args: ["lobs", "--fields", "lob,payer_id"],
      header: "CATEGORY\\s+PAYER ID",
      csv: "lob,payer_id",
    },
    {
      args: ["updates", "--days", "365", "--fields", "policy_id,change_type"],
      header: "POLICY ID",
      csv: "policy_id,change_type",
    },
  ])("$args.0: table and CSV", async ({ args, header, csv }) => {
    const table = await runInProcess(["-q", ...args], { env: plain(120) });
    expect(table.exitCode).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(new RegExp(`^${header}`));
    const out = await runInProcess(["-q", ...args, "--format", "csv"]);
    expect(out.stdout.split("\r\n")[0]).toBe(csv);
    const bad = await runInProcess(["-q", ...args.slice(0, -1), "nope"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`${csv.split(",")[0]}`);
  });
});

describe("help", () => {
  it("subcommand help lists the global options", async () => {
    const r = await runInProcess(["search", "--help"]);
    expect(r.stdout).toMatch(/Global Options:\n(.*\n)*\s+--api-url <url>/);
    expect(r.stdout).toContain("--format <format>");
  });

  it("the root help ends with examples, the environment variables and the exit codes", async () => {
    const r = await runInProcess(["--help"]);
    expect(r.exitCode).toBe(0);
    const examples = r.stdout.indexOf("Examples:");
    const environment = r.stdout.indexOf("Environment:");
    const codes = r.stdout.indexOf("Exit codes:");
    expect(examples).toBeGreaterThan(r.stdout.indexOf("Commands:"));
    expect(environment).toBeGreaterThan(examples);
    expect(codes).toBeGreaterThan(environment);
    expect(r.stdout.slice(environment)).toContain("COVERAGE_API_KEY");
    expect(r.stdout.slice(codes)).toMatch(/\n {2}3 +authentication/);
  });

  it("`help nope`: the command is unknown, exit 2", async () => {
    const r = await runInProcess(["help", "nope"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error: unknown command 'nope'");
    expect(r.stdout).toBe("");
  });

  it("`help config set` is a subcommand's help; `help config nope` is unknown", async () => {
    const ok = await runInProcess(["help", "config", "set"]);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/^Usage: coverage config set/);
    const bad = await runInProcess(["help", "config", "nope"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("error: unknown command 'config nope'");
  });

  it("`help payers` is the payers help, exit 0", async () => {
    const r = await runInProcess(["help", "payers"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Usage: coverage payers/);
  });
});

describe("health checks the key (GET /v1/payers?limit=1)", () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(["--api-key", "the-right-key"]);
  });
  afterAll(() => serve.stop());

  it.each([
    { key: "a-wrong-key", exit: 3, status: 401 },
    { key: "the-right-key", exit: 0, status: 200 },
  ])("coverage serve --api-key, key $key: exit $exit", async ({ key, exit, status }) => {
    const r = await runInProcess(["--api-url", serve.url, "health", "--json"], {
      env: { COVERAGE_API_KEY: key },
    });
    expect(r.exitCode).toBe(exit);
    expect(JSON.parse(r.stdout).key.status).toBe(status);
    if (exit) expect(r.stderr).toContain("error: the API refused the key (401");
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it("a scripted server: the request is GET /v1/payers?limit=1 with the key", async () => {
    const server = await startScripted((req, res) => {
      if (req.url?.startsWith("/v1/")) return json(res, 401, { detail: "Invalid API key" });
      json(res, 200, { status: req.url === "/ready" ? "ready" : "ok" });
    });
    try {
      const r = await runInProcess(["--api-url", server.url, "health"], {
        env: { ...plain(100), COVERAGE_API_KEY: "k-123456" },
      });
      expect(r.exitCode).toBe(3);
      expect(r.stdout).toMatch(/key \(\/v1\/payers\?limit=1\)\s+401/);
      const check = server.requests.find((q) => q.url.startsWith("/v1/"));
      expect(check).toMatchObject({ method: "GET", url: "/v1/payers?limit=1" });
      expect(check?.headers["x-api-key"]).toBe("k-123456");
    } finally {
      await server.close();
    }
  });

  it("without a key: only /health and /ready, as before", async () => {
    const r = await runInProcess(["--api-url", serve.url, "health", "--json"]);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(["health", "ready"]);
  });
});
