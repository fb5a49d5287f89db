// Issue 37 items 5 and 6: views that agree with themselves, and a partial answer that says so
// in a script too. Through the CLI in this process (the bundled sample); neither stream is a
// terminal here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import {
  envelope,
  json,
  startScripted,
  startServe,
  type Scripted,
  type ServeProcess,
} from "../helpers/server.js";

describe("lobs --state: the nationwide lines of business it leaves out are named", () => {
  it("says so on stderr, with the command that lists them", async () => {
    const r = await runInProcess(["lobs", "--payer", "CIGNA", "--state", "TX"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("CIGNA_individual_aca_TX");
    expect(r.stdout).not.toContain("CIGNA_commercial_US");
    expect(r.stderr).toContain("Nationwide lines of business are left out");
    expect(r.stderr).toContain("`coverage lobs --payer CIGNA` lists them too");
  });
  it("says nothing without --state, or with -q", async () => {
    const plain = await runInProcess(["lobs", "--payer", "CIGNA"]);
    expect(plain.stderr).not.toContain("Nationwide");
    const quiet = await runInProcess(["-q", "lobs", "--payer", "CIGNA", "--state", "TX"]);
    expect(quiet.stderr).toBe("");
  });
});

describe("a partial answer says so on stderr whether or not it is a terminal", () => {
  it.each([["csv"], ["ndjson"], ["table"]])("search --format %s piped", async (format) => {
    const r = await runInProcess(["search", "--format", format]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("More results: add --offset 20, or --all for every page.");
  });
  it("not with --quiet, nor when every page was asked for", async () => {
    const quiet = await runInProcess(["-q", "search", "--format", "csv"]);
    expect(quiet.stderr).toBe("");
    const all = await runInProcess(["search", "--all", "--format", "csv"]);
    expect(all.stderr).not.toContain("More results");
  });
});

describe("code --state shows only scopes in those states, as its help says", () => {
  it("code HCPCS:E0601 --state NF: nationwide or NF (and its state) only, each payer with its own", async () => {
    const r = await runInProcess(["code", "HCPCS:E0601", "--state", "NF", "--json"]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as {
      groups: Array<{
        policies: Array<{ scopes: string; applicability: Array<{ state: string | null }> }>;
      }>;
    };
    const policies = report.groups.flatMap((g) => g.policies);
    expect(policies.length).toBeGreaterThan(0);
    for (const p of policies) {
      for (const a of p.applicability) expect([null, "NF", "CA"]).toContain(a.state ?? null);
      expect(p.scopes).not.toMatch(/ (FL|KY|TX)\b/);
    }
    const table = await runInProcess(["-q", "code", "HCPCS:E0601", "--state", "NF"]);
    expect(table.stdout).not.toMatch(/medicaid · (FL|KY)/);
    expect(table.stdout).toContain("Aetna: commercial · nationwide");
  });
});

describe("search --help says when past links count (rules.md, Filter 3)", () => {
  it("names --retired and the date window", async () => {
    const r = await runInProcess(["search", "--help"]);
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toContain("Past links count only with --retired");
    expect(help).toContain("or a date window");
  });
});

describe("a csv or ndjson default (COVERAGE_FORMAT, the profile) is let be by diff", () => {
  it.each([["csv"], ["ndjson"]])(
    "COVERAGE_FORMAT=%s diff KEY: the diff, exit 0",
    async (format) => {
      const r = await runInProcess(["-q", "diff", "aetna/cpb/0070"], {
        env: { COVERAGE_FORMAT: format },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain("aetna/cpb/0070/2025-01-01");
      expect(r.stderr).toBe("");
    },
  );
  it("--format csv asked on the command line is still refused (exit 2)", async () => {
    const r = await runInProcess(["-q", "diff", "aetna/cpb/0070", "--format", "csv"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("diff is not a list");
  });
});

describe("download of a version without the file asked for says what is stored, before trying", () => {
  it.each([
    [["cms-ncd/150.3/2007-01-01"], /neither the original file nor the text version/, /source URL/],
    [
      ["cms-ncd/40.2/2001-01-01", "--text"],
      /no stored text version; its original file is stored/,
      /`coverage download cms-ncd\/40\.2\/2001-01-01`/,
    ],
    [
      ["cms-lcd/L36007/2019-11-14"],
      /no stored original file; its text version is stored/,
      /--text`/,
    ],
  ])("download %j", async (args, message, hint) => {
    const r = await runInProcess(["-q", "download", ...args, "-o", "-"]);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(hint);
    expect(r.stderr).not.toContain("try the other variant");
  });
});

describe("code and matrix against an API look at the API's day, not this machine's", () => {
  let serve: ServeProcess;
  let dated: Scripted;
  beforeAll(async () => {
    // The bundled sample's as_of (2026-11-21) is serve's today.
    serve = await startServe();
    // Any API: its Date header dates its clock (a day this machine will not read for years).
    dated = await startScripted((_req, res) =>
      json(res, 200, envelope([], 100, 0, false), { date: "Mon, 05 May 2031 23:30:00 GMT" }),
    );
  });
  afterAll(async () => {
    await serve.stop();
    await dated.close();
  });
  const over = (url: string, args: string[]) =>
    runInProcess(["--api-url", url, "-q", ...args, "--json"], { env: { COVERAGE_API_KEY: "k" } });

  it.each([["code"], ["matrix"]])(
    "%s over serve: the sample's day (as --local says)",
    async (command) => {
      const [http, local] = await Promise.all([
        over(serve.url, [command, "CPT:97110"]),
        runInProcess(["--local", "-q", command, "CPT:97110", "--json"]),
      ]);
      expect(http.exitCode, http.stderr).toBe(0);
      expect(JSON.parse(http.stdout).effective_on).toBe("2026-11-21");
      expect(JSON.parse(http.stdout)).toEqual(JSON.parse(local.stdout));
    },
  );

  it("an API's Date header: the policies of its day, asked again when this machine's differs", async () => {
    const r = await over(dated.url, ["code", "CPT:97110"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).effective_on).toBe("2031-05-05");
    const last = JSON.parse(dated.requests.at(-1)!.body) as {
      policies: { effective_date: { start: string; end: string } };
    };
    expect(last.policies.effective_date).toEqual({ start: "2031-05-05", end: "2031-05-05" });
  });

  it("--effective-on still decides alone", async () => {
    const r = await over(serve.url, ["code", "CPT:97110", "--effective-on", "2026-01-01"]);
    expect(JSON.parse(r.stdout).effective_on).toBe("2026-01-01");
  });
});
