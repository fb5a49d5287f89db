import { describe, expect, it, type TestContext } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import { HTTP_DATA, envelope, json, startScripted, type Scripted } from "../helpers/server.js";

// Issue 19, item 3: forgiving, checked input, through the built CLI.
const KEY = "sk-test-SECRET-1919";
const EMPTY = envelope([], 20, 0, false);
const STACK = /\n\s+at /;

/** A scripted API on 127.0.0.1 that knows two payers and two LOBs; closed when the test ends. */
async function serveCatalogue(t: TestContext): Promise<Scripted> {
  const s = await startScripted((req, res) => {
    const url = new URL(req.url ?? "", "http://x");
    if (url.pathname === "/v1/payers")
      return json(res, 200, {
        ...envelope(
          [
            { payer_id: "ACME", display_name: "Acme Health" },
            { payer_id: "CMS", display_name: "Medicare (CMS)" },
          ],
          100,
          0,
          false,
        ),
      });
    if (url.pathname === "/v1/lobs")
      return json(
        res,
        200,
        envelope(
          [
            {
              lob_id: "ACME_commercial_US",
              payer_id: "ACME",
              payer_name: "Acme Health",
              lob: "commercial",
            },
            {
              lob_id: "CMS_medicare_part_b_NF",
              payer_id: "CMS",
              payer_name: "Medicare (CMS)",
              lob: "medicare_part_b",
              state: "NF",
            },
          ],
          100,
          0,
          false,
        ),
      );
    return json(res, 200, EMPTY);
  });
  t.onTestFinished(() => s.close());
  return s;
}

function overHttp(s: Scripted, args: string[], env: Record<string, string> = {}) {
  return runInProcess(["--api-url", s.url, ...args], { env: { COVERAGE_API_KEY: KEY, ...env } });
}

/** The body of the last search sent. */
const filterBody = (s: Scripted) =>
  JSON.parse(s.requests.findLast((r) => r.url === "/v1/policies/filter")!.body) as {
    policies: Record<string, unknown>;
  };

describe.concurrent("payer and LOB ids match the catalogue ignoring case", () => {
  it("locally, --payer acme finds what --payer ACME finds (the dataset is the catalogue)", async () => {
    const [lower, exact] = await Promise.all([
      runInProcess(["--data", HTTP_DATA, "search", "--payer", "acme", "--json"]),
      runInProcess(["--data", HTTP_DATA, "search", "--payer", "ACME", "--json"]),
    ]);
    expect(lower.exitCode, lower.stderr).toBe(0);
    expect(JSON.parse(lower.stdout).data.length).toBeGreaterThan(0);
    expect(lower.stdout).toBe(exact.stdout);
  });

  it("locally, --lob-id and lobs --payer too; an unknown id is exit 2 naming close ones", async () => {
    const [lob, exact, lobs, unknown] = await Promise.all([
      runInProcess(["--data", HTTP_DATA, "search", "--lob-id", "acme_COMMERCIAL_us", "--json"]),
      runInProcess(["--data", HTTP_DATA, "search", "--lob-id", "ACME_commercial_US", "--json"]),
      runInProcess(["--data", HTTP_DATA, "lobs", "--payer", "Acme", "--json"]),
      runInProcess(["--data", HTTP_DATA, "search", "--payer", "acmee"]),
    ]);
    expect(lob.exitCode, lob.stderr).toBe(0);
    expect(lob.stdout).toBe(exact.stdout);
    expect(JSON.parse(lobs.stdout).data.every((l: { payer_id: string }) => l.payer_id === "ACME"));
    expect(JSON.parse(lobs.stdout).data.length).toBeGreaterThan(0);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/--payer 'acmee' is not a payer id/);
    expect(unknown.stderr).not.toMatch(STACK);
  });

  it("over HTTP, --payer acme is sent as typed; its empty answer brings the lists, then ACME is sent", async (t) => {
    const s = await serveCatalogue(t);
    const r = await overHttp(s, [
      "search",
      "--payer",
      "acme",
      "--lob-id",
      "cms_medicare_part_b_nf",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests.map((q) => q.url.replace(/\?.*/, ""))).toEqual([
      "/v1/policies/filter",
      "/v1/payers",
      "/v1/lobs",
      "/v1/policies/filter",
    ]);
    expect(filterBody(s).policies).toEqual({
      payer_ids: ["ACME"],
      lob_ids: ["CMS_medicare_part_b_NF"],
    });
  });

  it("over HTTP, ids in the catalogue's spelling under an empty answer are checked (one look-up each), not sent again", async (t) => {
    const s = await serveCatalogue(t);
    const r = await overHttp(s, ["search", "--payer", "ACME", "--lob-id", "ACME_commercial_"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(s.requests.map((q) => q.url.replace(/\?.*/, ""))).toEqual([
      "/v1/policies/filter",
      "/v1/payers",
      "/v1/lobs",
    ]);
  });
});

describe.concurrent(
  "bad input is exit 2 before any request (an unknown id after the answer)",
  () => {
    it.for<[string, string[], RegExp]>([
      [
        "a code of another system",
        ["--code", "CPT:E0601"],
        /^error: --code CPT:E0601: E0601 is a HCPCS Level II code: did you mean HCPCS:E0601\?$/m,
      ],
      [
        "a space inside a code",
        ["--code", "CPT:97110 97112"],
        /a code cannot hold a space\n.*--code CPT:97110,97112/,
      ],
      [
        "--effective-start after --effective-end",
        ["--effective-start", "2026-03-01", "--effective-end", "2026-01-01"],
        /--effective-start 2026-03-01 is after --effective-end 2026-01-01/,
      ],
      ["--retired with --no-retired", ["--retired", "--no-retired"], /--retired and --no-retired/],
      ["a state name", ["--state", "California"], /did you mean --state CA\?/],
      ["an unknown payer", ["--payer", "nobody"], /--payer 'nobody' is not a payer id/],
    ])("%s", async ([, args, message], t) => {
      const s = await serveCatalogue(t);
      const r = await overHttp(s, ["search", ...args]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(STACK);
      // The unknown payer, sent as typed, had an empty answer; the list (and one look among the
      // LOBs, for a payer with LOBs and no policy) found it out; nothing else was asked.
      expect(s.requests.map((q) => q.url.replace(/\?.*/, ""))).toEqual(
        args[0] === "--payer" ? ["/v1/policies/filter", "/v1/payers", "/v1/lobs"] : [],
      );
    });

    it("a date that does not exist is quoted and said once", async () => {
      const r = await runInProcess(["search", "--effective-on", "2026-02-30"]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/--effective-on '2026-02-30' is not a real date/);
      expect(r.stderr.match(/not a real date/g)).toHaveLength(1);
    });
  },
);

describe.concurrent("settings that could not work say so", () => {
  it("config set api-url refuses plain http off loopback (every command would refuse it)", async () => {
    const bad = await runInProcess(["config", "set", "api-url", "http://api.example.com"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/plain http to a host that is not loopback/);
    const sandbox = await runInProcess(["config", "set", "sandbox-url", "http://10.0.0.1:8080"]);
    expect(sandbox.exitCode).toBe(2);
    const loopback = await runInProcess(["config", "set", "api-url", "http://127.0.0.1:8080"]);
    expect(loopback.exitCode, loopback.stderr).toBe(0);
  });

  it("--dry-run without a key says the real run would fail", async () => {
    const r = await runInProcess(["--api-url", "https://api.example.com", "search", "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).url).toBe("https://api.example.com/v1/policies/filter");
    expect(r.stderr).toMatch(/no API key is set: the real run would fail \(exit 3\)/);
    const keyed = await runInProcess(
      ["--api-url", "https://api.example.com", "search", "--dry-run"],
      { env: { COVERAGE_API_KEY: KEY } },
    );
    expect(keyed.stderr).toBe("");
  });

  it("--today and --data with a remote API warn that they apply to the local engine only", async (t) => {
    const s = await serveCatalogue(t);
    const r = await overHttp(s, ["--today", "2026-01-01", "--data", HTTP_DATA, "search"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: --data applies to the local engine only/);
    expect(r.stderr).toMatch(/warning: --today applies to the local engine only/);
    const local = await runInProcess([
      "-q",
      "--data",
      HTTP_DATA,
      "--today",
      "2026-01-01",
      "search",
    ]);
    expect(local.stderr).toBe("");
  });
});
