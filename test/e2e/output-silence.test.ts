import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import { envelope, json, startScripted, type Scripted } from "../helpers/server.js";
import { onTty } from "../helpers/tty.js";

// cli.md Output, "Nothing fails silently", through the CLI in this process (bundled sample).

/** The CLI in this process: stdout and stderr as written (neither is a terminal). */
async function run(args: string[], env: Record<string, string> = {}) {
  const r = await runInProcess(args, { env });
  return { exitCode: r.exitCode, stdout: r.rawStdout, stderr: r.rawStderr };
}

describe("an id the catalogue lacks, in any case, is exit 2 with the closest ids", () => {
  it.each([
    [["search", "--payer", "AETN"], "--payer 'AETN' is not a payer id", "AETNA"],
    [["search", "--payer", "aetna,ZZQQ"], "--payer 'ZZQQ' is not a payer id", "Closest payer ids"],
    [["search", "--payer", "Cigna", "--payer", "UHCC"], "--payer 'UHCC'", "UHC"],
    [
      ["search", "--lob-id", "AETNA_commercial_XX"],
      "--lob-id 'AETNA_commercial_XX' is not a LOB id",
      "AETNA_commercial_US",
    ],
    [["lobs", "--payer", "MOLINAX"], "--payer 'MOLINAX' is not a payer id", "Closest payer ids"],
    [["code", "CPT:97110", "--payer", "AETN"], "--payer 'AETN'", "AETNA"],
    [["matrix", "CPT:97110", "--payer", "HUMANAA"], "--payer 'HUMANAA'", "HUMANA"],
  ])("%j", async (args, message, closest) => {
    const r = await run(["-q", ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain(closest);
  });

  it("ids in any case that exist are sent as the catalogue spells them", async () => {
    const upper = await run(["-q", "search", "--payer", "AETNA", "--json"]);
    const lower = await run(["-q", "search", "--payer", "aetna", "--json"]);
    expect(upper.exitCode).toBe(0);
    expect(lower.stdout).toBe(upper.stdout);
  });
});

describe("over HTTP: ids go as typed; /v1/payers and /v1/lobs only when the answer could hide a typo", () => {
  let server: Scripted;
  // A real policy of the sample, as the API would send it (AETNA's, nationwide commercial).
  let aetnaPolicy: unknown;
  beforeAll(async () => {
    const local = await run(["-q", "search", "--payer", "AETNA", "--limit", "1", "--json"]);
    aetnaPolicy = (JSON.parse(local.stdout) as { data: unknown[] }).data[0];
    server = await startScripted((req, res, _n, body) => {
      const url = req.url ?? "";
      if (url.startsWith("/v1/payers"))
        return json(
          res,
          200,
          envelope([{ payer_id: "AETNA", display_name: "Aetna" }], 100, 0, false),
        );
      if (url.startsWith("/v1/lobs"))
        return json(
          res,
          200,
          envelope(
            [
              {
                lob_id: "AETNA_commercial_US",
                payer_id: "AETNA",
                payer_name: "Aetna",
                lob: "commercial",
              },
            ],
            100,
            0,
            false,
          ),
        );
      // Ids match exactly, as an API's would: AETNA finds its policy, aetna nothing.
      const payers = (JSON.parse(body || "{}") as { policies?: { payer_ids?: string[] } }).policies
        ?.payer_ids;
      const found = payers?.includes("AETNA") ? [aetnaPolicy] : [];
      return json(res, 200, envelope(found, 20, 0, false));
    });
  });
  afterAll(() => server.close());
  const http = (args: string[]) =>
    run(["--api-url", server.url, "-q", ...args], { COVERAGE_API_KEY: "k1" });
  const paths = () => server.requests.splice(0).map((r) => r.url.split("?")[0]);

  it("no ids: no catalogue request", async () => {
    await http(["search", "--state", "CA"]);
    expect(paths()).toEqual(["/v1/policies/filter"]);
  });
  it("a payer id spelled right: exactly one request, the search, with the id as typed", async () => {
    const r = await http(["search", "--payer", "AETNA"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("aetna/");
    expect(server.requests.map((q) => q.url.split("?")[0])).toEqual(["/v1/policies/filter"]);
    expect(JSON.parse(server.requests[0]!.body).policies.payer_ids).toEqual(["AETNA"]);
    paths();
  });
  it.each([["code"], ["matrix"]])(
    "%s CPT:97110 --payer AETNA: exactly one request, the view's",
    async (command) => {
      // --today pins the day, so the answer's Date header cannot ask for another day.
      const r = await http(["--today", "2026-11-21", command, "CPT:97110", "--payer", "AETNA"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(paths()).toEqual(["/v1/policies/filter"]);
    },
  );
  it("--verbose shows what was sent, the body's ids included", async () => {
    const r = await http(["--verbose", "search", "--payer", "AETNA"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/POST \S+\/v1\/policies\/filter 200 .*"payer_ids":\["AETNA"\]/);
    expect(paths()).toEqual(["/v1/policies/filter"]);
  });
  it("an id in another case: the empty answer brings the catalogue, then the search as spelled", async () => {
    const r = await http(["search", "--payer", "aetna", "--lob-id", "AETNA_commercial_US"]);
    expect(r.exitCode).toBe(0);
    expect(paths()).toEqual([
      "/v1/policies/filter",
      "/v1/payers",
      "/v1/lobs",
      "/v1/policies/filter",
    ]);
  });
  it("an unknown id: exit 2 with the closest ids (a payer with LOBs only is looked for once)", async () => {
    const r = await http(["search", "--payer", "AETN"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Closest payer ids: AETNA");
    expect(paths()).toEqual(["/v1/policies/filter", "/v1/payers", "/v1/lobs"]);
  });
  it("several ids, one a typo, under an answer that is not empty: the typo is still caught", async () => {
    const r = await http(["search", "--payer", "AETNA,AETN"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--payer 'AETN'");
    expect(paths()).toEqual(["/v1/policies/filter", "/v1/payers", "/v1/lobs"]);
  });
});

describe("an empty answer says so", () => {
  const NONE = ["search", "--code", "ICD10CM:Z99.89X"];
  it.each([
    [[], ""],
    [["--json"], '"data": []'],
    [["--format", "ndjson"], ""],
    [["--format", "csv"], "policy_id,policy_number,title,"],
  ])("piped %j: the message on stderr (even with -q), stdout data only", async (format, stdout) => {
    const r = await run(["-q", ...NONE, ...format]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("No policies match.\n");
    if (stdout) expect(r.stdout).toContain(stdout);
    else expect(r.stdout).toBe("");
  });
  it.each([
    [["lobs", "--payer", "CMS", "--lob", "commercial"], "No lines of business match."],
    [["updates", "--days", "1"], "No new or updated policies in the last 1 day."],
    [["code", "CPT:0001F", "--format", "csv"], "No policy lists this code."],
    [["matrix", "CPT:0001F", "--format", "ndjson"], "No policy lists this code."],
  ])("%j: %s on stderr", async (args, message) => {
    const r = await run(["-q", ...args]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(message);
  });
  it("a table on a terminal: the message on stdout", async () => {
    const r = await onTty(["-q", ...NONE]);
    expect(r.stdout.trim()).toBe("No policies match.");
  });
});

describe("updates narrowed by payer fills its page or says more may remain", () => {
  const ids = (csv: string) =>
    csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((l) => l.split(",")[0]);
  it("--limit N: N items (reading further pages), then --offset from the warning gives the rest", async () => {
    const all = await run([
      "updates",
      "--days",
      "365",
      "--payer",
      "UHC",
      "--all",
      "--format",
      "csv",
    ]);
    const every = ids(all.stdout);
    expect(every.length).toBeGreaterThan(2);
    const first = await run([
      "updates",
      "--days",
      "365",
      "--payer",
      "uhc",
      "--limit",
      "2",
      "--format",
      "csv",
    ]);
    expect(ids(first.stdout)).toEqual(every.slice(0, 2));
    const next = /add --offset (\d+)/.exec(first.stderr)?.[1];
    expect(first.stderr).toContain("more items may match after these 2");
    const rest = await run([
      "updates",
      "--days",
      "365",
      "--payer",
      "UHC",
      "--offset",
      String(next),
      "--limit",
      "100",
      "--format",
      "csv",
    ]);
    expect([...ids(first.stdout), ...ids(rest.stdout)]).toEqual(every);
    expect(rest.stderr).not.toContain("more items may match");
  });
});

describe("codes where users type them", () => {
  it("matrix takes the code positionally as well as --code", async () => {
    const positional = await run(["-q", "matrix", "CPT:97110", "--state", "CA"]);
    const flag = await run(["-q", "matrix", "--code", "CPT:97110", "--state", "CA"]);
    expect(positional.exitCode).toBe(0);
    expect(positional.stdout).toBe(flag.stdout);
    const none = await run(["-q", "matrix"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("matrix needs a code");
  });
  it("code 97110 names the code, not a --code flag it does not have", async () => {
    const r = await run(["-q", "code", "97110"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'97110' has no code system");
    expect(r.stderr).toContain("Did you mean CPT:97110?");
    expect(r.stderr).not.toContain("--code");
  });
});
