import { describe, expect, it } from "vitest";
import path from "node:path";
import { ROOT, RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

const COMMANDS_DATA = path.join(ROOT, "test", "fixtures", "commands", "dataset.json");

const TABLE_ENV = { COLUMNS: "100", NO_COLOR: "1" };
const run = (args: string[]) =>
  runInProcess(["--local", "--data", RULES_DATA, ...args], { env: TABLE_ENV });

describe("coverage payers / lobs / updates (e2e, rules dataset)", () => {
  it.each([
    "payers",
    "payers --lob commercial",
    "lobs",
    "lobs --state ca --lob commercial,medicare-advantage",
    "lobs --payer CMS",
    "updates",
    "updates --days 1 --today 2026-07-01",
  ])("table: coverage %s", async (line) => {
    const r = await run(line.split(" "));
    expect(r.exitCode).toBe(0);
    // Only the lines saying that --state CA also sends NF and SF, that `lobs --state`
    // leaves nationwide LOBs out, and the day `updates` counts back from (the data's as_of).
    expect(
      r.stderr
        .replace(/^--state CA also sends .*\n?/m, "")
        .replace(/^The days are counted back from .*\n?/m, "")
        .replace(/^Nationwide lines of business are left out .*\n?/m, ""),
    ).toBe("");
    expect(r.stdout).toMatchSnapshot();
  });

  it("table: updates grouped by date (newest first), then payer, a blank line between dates", async () => {
    const r = await runInProcess(["--data", COMMANDS_DATA, "updates"], { env: TABLE_ENV });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatchSnapshot();
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^EFFECTIVE\s+PAYER\s+CHANGE\s+TITLE\s+POLICY ID$/);
    expect(lines.filter((l) => /^\d{4}-\d{2}-\d{2}/.test(l)).map((l) => l.slice(0, 10))).toEqual([
      "2026-05-28",
      "2026-05-15",
    ]);
    expect(lines).toContain("");
  });

  it.each<{ args: string[]; ids: string[]; key: string }>([
    { args: ["payers"], ids: ["P1", "P2", "CMS"], key: "payer_id" },
    { args: ["payers", "--lob", "medicare_part_b"], ids: ["CMS"], key: "payer_id" },
    {
      args: ["payers", "--lob", "medicaid", "--lob", "individual_aca"],
      ids: ["P1"],
      key: "payer_id",
    },
    {
      args: ["lobs", "--state", "NF,ca"],
      ids: ["CMS_medicare_part_b_NF", "P1_commercial_CA", "P2_medicare_advantage_CA"],
      key: "lob_id",
    },
    {
      args: ["lobs", "--payer", "P2", "--lob", "commercial"],
      ids: ["P2_commercial_TX"],
      key: "lob_id",
    },
    {
      args: ["updates", "--days", "30"],
      ids: ["b/sleep/x/2026-05-20", "b/sleep/x/2026-05-20"],
      key: "policy_id",
    },
    {
      args: ["updates", "--days", "200", "--today", "2026-07-01"],
      ids: ["cms-lcd/L1/2026-07-01", "b/sleep/x/2026-05-20", "b/sleep/x/2026-05-20"],
      key: "policy_id",
    },
  ])("json $args", async ({ args, ids, key }) => {
    const r = await run([...args, "--json"]);
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.data.map((d: Record<string, string>) => d[key])).toEqual(ids);
    expect(body).toMatchObject({ offset: 0, has_more: false });
  });

  it("updates: change_type, payer names and the grouping order", async () => {
    const r = await run([
      "updates",
      "--days",
      "365",
      "--today",
      "2026-07-01",
      "--format",
      "ndjson",
    ]);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((u) => [u.effective_from_date, u.payer_display_name, u.change_type])).toEqual([
      ["2026-07-01", "Medicare (CMS)", "new"],
      ["2026-05-20", "Alpha Health", "new"],
      ["2026-05-20", "beta Care", "new"],
    ]);
  });

  it.each([
    { cmd: "payers", total: 3 },
    { cmd: "lobs", total: 9 },
  ])("$cmd --limit 2 pages; --all gathers one envelope", async ({ cmd, total }) => {
    const page = JSON.parse((await run([cmd, "--limit", "2", "--json"])).stdout);
    expect(page).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(page.data).toHaveLength(2);
    const next = JSON.parse((await run([cmd, "--limit", "2", "--offset", "2", "--json"])).stdout);
    expect(next.offset).toBe(2);
    const all = JSON.parse((await run([cmd, "--all", "--limit", "2", "--json"])).stdout);
    expect(all).toMatchObject({ offset: 0, has_more: false });
    expect(all.data).toHaveLength(total);
    const nd = (await run([cmd, "--all", "--limit", "2", "--format", "ndjson"])).stdout;
    expect(nd.trim().split("\n")).toHaveLength(total);
  });

  it("csv: RFC 4180 with a header; a LOB's state column exists even when the first lacks it", async () => {
    const r = await run(["lobs", "--payer", "CMS,P9", "--format", "csv"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        "lob_id,payer_id,payer_name,lob,state",
        "CMS_medicare_part_b_NF,CMS,Medicare (CMS),medicare_part_b,NF",
        "CMS_medicare_part_b_US,CMS,Medicare (CMS),medicare_part_b,",
        "P9_commercial_US,P9,Unlinked Plan,commercial,",
      ].join("\r\n"), // execa drops the final line break
    );
  });

  it("csv of updates and payers", async () => {
    const u = await run(["updates", "--format", "csv"]);
    expect(u.stdout.split("\r\n")[0]).toBe(
      "policy_id,policy_number,title,effective_from_date,change_type,payer_id,payer_display_name,file_url",
    );
    expect(u.stdout.split("\r\n")[1]).toBe(
      "b/sleep/x/2026-05-20,SL 7/1,sleep apnea devices,2026-05-20,new,P1,Alpha Health,https://example.org/sleep",
    );
    const p = await run(["payers", "--format", "csv"]);
    expect(p.stdout).toBe(
      "payer_id,display_name\r\nP1,Alpha Health\r\nP2,beta Care\r\nCMS,Medicare (CMS)",
    );
  });

  it.each([
    { args: ["lobs", "--state", "WY"], json: { data: [], limit: 20, offset: 0, has_more: false } },
    { args: ["updates", "--days", "1"], json: { data: [], limit: 20, offset: 0, has_more: false } },
  ])("empty results: valid JSON, exit 0, empty table stdout ($args)", async ({ args, json }) => {
    const j = await run([...args, "--json"]);
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual(json);
    const t = await run(args);
    expect(t.exitCode).toBe(0);
    expect(t.stdout).toBe("");
    const csv = await run([...args, "--format", "csv"]);
    expect(csv.exitCode).toBe(0);
    expect(csv.stdout.split("\r\n")).toHaveLength(1); // the header alone
  });

  it.each<{ args: string[]; url: string }>([
    { args: ["payers"], url: "http://local/v1/payers" },
    {
      args: ["payers", "--lob", "commercial,medicaid", "--limit", "5"],
      url: "http://local/v1/payers?limit=5&lobs=commercial&lobs=medicaid",
    },
    {
      args: ["lobs", "--state", "ca", "--payer", "P1", "--payer", "P2", "--offset", "3"],
      url: "http://local/v1/lobs?offset=3&payer_ids=P1&payer_ids=P2&states=CA&states=NF&states=SF",
    },
    { args: ["updates"], url: "http://local/v1/policies/updates" },
    { args: ["updates", "--days", "7"], url: "http://local/v1/policies/updates?days=7" },
    { args: ["updates", "--all"], url: "http://local/v1/policies/updates" },
  ])("--dry-run $args", async ({ args, url }) => {
    const r = await run([...args, "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ method: "GET", url, headers: { "x-api-key": "***" } });
  });

  it.each([
    ["payers", "--dry-run"],
    ["search", "--query", "abc123xyz", "--dry-run"],
  ])("--dry-run masks the key wherever it appears, even in --api-url (%j)", async (...args) => {
    const r = await runInProcess(["--api-url", "http://127.0.0.1:9/abc123xyz", ...args], {
      env: { COVERAGE_API_KEY: "abc123xyz" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("abc123xyz");
    expect(JSON.parse(r.stdout).url).toMatch(/^http:\/\/127\.0\.0\.1:9\/\*\*\*\/v1\//);
  });

  it.each<{ args: string[]; line: string }>([
    {
      args: ["updates", "--days", "0"],
      line: "query.days: Input should be greater than or equal to 1 (--days)",
    },
    {
      args: ["updates", "--days", "366"],
      line: "query.days: Input should be less than or equal to 365 (--days)",
    },
    {
      args: ["payers", "--limit", "0"],
      line: "query.limit: Input should be greater than or equal to 1 (--limit)",
    },
    { args: ["payers", "--lob", "gold"], line: "query.lobs.0: 'gold' is not a LOB category" },
    {
      args: ["payers", "--lob", "medcaid"],
      line: "query.lobs.0: 'medcaid' is not a LOB category: did you mean medicaid? (--lob)",
    },
    { args: ["lobs", "--state", "XX"], line: "query.states.0: 'XX' is not a state code" },
    {
      args: ["lobs", "--offset", "-2"],
      line: "query.offset: Input should be greater than or equal to 0 (--offset)",
    },
  ])("bad value $args: exit 2, `loc: msg`, nothing on stdout", async ({ args, line }) => {
    const r = await run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(line);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
