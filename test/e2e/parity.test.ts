import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { cleanEnv, RULES_DATA, runCoverage } from "../helpers/cli.js";
import { HTTP_DATA, startServe, type ServeProcess } from "../helpers/server.js";

/**
 * Parity: the same command through the in-process engine (`--local --data X`) and through
 * `coverage serve --data X` (`--api-url`) prints byte-identical output, exit code and stderr.
 * The servers are real processes. The broad matrix runs the CLI in-process (`runCli`, the code
 * the binary runs) to keep hundreds of cases fast; a sample runs the built binary on both sides.
 */

const KEY = "parity-key";
const PAST = "2025-06-01";
const HTTP_ENV = { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1" };

interface Target {
  name: string;
  data: string;
  today?: string;
  server?: ServeProcess;
}

interface Outcome {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  bytes: Buffer;
}

const targets: Record<"rules" | "http" | "past", Target> = {
  rules: { name: "rules dataset", data: RULES_DATA },
  http: { name: "http dataset", data: HTTP_DATA },
  past: { name: `rules dataset, today ${PAST}`, data: RULES_DATA, today: PAST },
};

beforeAll(async () => {
  await Promise.all(
    Object.values(targets).map(async (t) => {
      t.server = await startServe(
        ["--data", t.data, ...(t.today ? ["--today", t.today] : []), "--quiet"],
        { COVERAGE_SERVE_KEY: KEY },
      );
    }),
  );
});

afterAll(async () => {
  await Promise.all(Object.values(targets).map((t) => t.server?.stop()));
});

function sink(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
}

/** The CLI in this process, with the clean environment the e2e helper gives the binary. */
async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const exitCode = await runCli(args, {
    env: cleanEnv(env) as NodeJS.ProcessEnv,
    stdout: sink(out),
    stderr: sink(err),
    signal: new AbortController().signal,
  });
  const bytes = Buffer.concat(out);
  return {
    exitCode,
    stdout: bytes.toString("utf8"),
    stderr: Buffer.concat(err).toString("utf8"),
    bytes,
  };
}

/** The built binary as a process (stdout kept as bytes for downloads). */
async function runBinary(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<Outcome> {
  const r = await runCoverage(args, {
    env,
    encoding: "buffer",
    ...(input === undefined ? {} : { input }),
  });
  const bytes = Buffer.from(r.stdout as unknown as Uint8Array);
  return {
    exitCode: r.exitCode,
    stdout: bytes.toString("utf8"),
    stderr: Buffer.from(r.stderr as unknown as Uint8Array).toString("utf8"),
    bytes,
  };
}

const localArgs = (t: Target, args: string[]) => [
  "--local",
  "--data",
  t.data,
  ...(t.today ? ["--today", t.today] : []),
  ...args,
];
const httpArgs = (t: Target, args: string[]) => ["--api-url", t.server!.url, ...args];

/** Runs `args` on both backends, in-process (or as processes with `binary`, `input` on stdin). */
async function both(
  target: Target,
  args: string[],
  how: { binary?: boolean; input?: string } = {},
) {
  const [local, http] = how.binary
    ? await Promise.all([
        runBinary(localArgs(target, args), {}, how.input),
        runBinary(httpArgs(target, args), HTTP_ENV, how.input),
      ])
    : await Promise.all([
        runInProcess(localArgs(target, args)),
        runInProcess(httpArgs(target, args), HTTP_ENV),
      ]);
  return { local, http };
}

async function expectParity(
  target: Target,
  args: string[],
  how: { binary?: boolean; input?: string } = {},
) {
  const { local, http } = await both(target, args, how);
  expect(http.stdout).toBe(local.stdout);
  expect(http.stderr).toBe(local.stderr);
  expect(http.exitCode).toBe(local.exitCode);
  expect(http.bytes.equals(local.bytes)).toBe(true);
  return local;
}

const SEARCHES: string[][] = [
  [],
  ["--code", "CPT:97110"],
  ["--code", "CPT:97110", "--state", "CA"],
  ["--code", "cpt:97110", "--relationship", "covers"],
  ["--code", "CPT:97110", "--relationship", "DOES_NOT_COVER,references"],
  ["--code", "ICD10CM:G4733"],
  ["--code", "ICD10:g47.33", "--code", "HCPCS:E0601", "--match", "all"],
  ["--code", "ICD10CM:G47.33", "--code", "HCPCS:E0601", "--match", "any"],
  ["--code", "HCPCS:E0601", "--relationship", "does-not-cover"],
  ["--code", "CPT_MODIFIER:59,KX"],
  ["--code", "HCPCS-MODIFIER:kx"],
  ["therapy"],
  ["sleep", "apnea"],
  ["sleep", "apnea", "--sort", "title_asc"],
  ["--query", "<b>therapeutic</b> exercise"],
  ["--query", "nomatchword"],
  ["--sort", "title_asc"],
  ["--sort", "title_desc"],
  ["--sort", "policy_number_asc"],
  ["--sort", "policy_number_desc"],
  ["--sort", "policy_id_desc"],
  ["--sort", "relevance", "--code", "CPT:97110"],
  ["--retired"],
  ["--no-retired"],
  ["--effective-on", "2024-06-01"],
  ["--effective-start", "2025-06-01"],
  ["--effective-end", "2024-12-31"],
  ["--effective-start", "2025-01-01", "--effective-end", "2025-12-31"],
  ["--effective-on", "2026-07-01", "--state", "NF"],
  ["--payer", "P1"],
  ["--payer", "P2", "--state", "TX"],
  ["--payer", "P2", "--retired"],
  ["--payer", "P2", "--effective-on", "2025-06-01"],
  ["--payer", "P1", "--lob", "medicare_advantage"],
  ["--lob", "commercial", "--state", "NY"],
  ["--lob", "medicare_part_b"],
  ["--lob-id", "P1_commercial_"],
  ["--lob-id", "P1_commercial_US,P1_medicaid_NY"],
  ["--state", "NF"],
  ["--state", "ca", "--lob", "medicare_advantage"],
  ["--state", "fl"],
  ["--applicability"],
  ["--code-groups"],
  ["--applicability", "--code-groups", "--effective-on", "2025-06-01"],
  ["--applicability", "--retired"],
  ["--limit", "2"],
  ["--limit", "2", "--offset", "2"],
  ["--offset", "100"],
  ["--all", "--limit", "2"],
  ["--all", "--limit", "4", "--offset", "1", "therapy"],
  ["--code", "CPT:97110", "--limit", "0"],
  ["--code", "ICD10PCS:0SRC0J9"],
];

// The CSV's status column is worked out by the client on its today: over HTTP that is the real
// date unless --today pins it (docs/decisions.md), so both sides pin the dataset's as_of (and
// -q keeps out the warning that --today does not reach the API).
const CSV_TODAY = ["-q", "--today", "2026-06-01"];

const FORMATS: string[][] = [
  ["--format", "ndjson", "search", "--all", "--limit", "1"],
  [...CSV_TODAY, "--format", "csv", "search", "--code", "CPT:97110", "--applicability"],
];

describe.concurrent("parity: search", () => {
  for (const key of ["rules", "past"] as const) {
    it.for(SEARCHES.map((a) => [a.join(" ") || "(no flags)", a] as const))(
      `${targets[key].name}: search %s`,
      async ([, args]) => {
        await expectParity(targets[key], ["--json", "search", ...args]);
      },
    );
  }

  it.for(FORMATS)("rules dataset: %j", async (args) => {
    await expectParity(targets.rules, args);
  });

  it("a whole body from stdin (--body -), flags overriding it", async () => {
    const body = JSON.stringify({
      policies: { q: "therapy", retired: false },
      limit: 3,
      sort: "title_asc",
    });
    await expectParity(targets.rules, ["--json", "search", "--body", "-", "--limit", "2"], {
      binary: true,
      input: body,
    });
  });

  it.for(
    [
      [],
      ["therapy"],
      ["sleep", "device", "--applicability", "--code-groups"],
      ["--code", "CPT:97110,97112"],
      ["--code", "ICD10CM:M17.11", "--code", "CPT:97110", "--match", "all"],
      ["--all", "--limit", "7"],
      ["--sort", "title_desc", "--limit", "100"],
      ["--sort", "policy_number_asc", "--limit", "100", "--retired"],
      ["--state", "SF", "--lob", "medicare_part_b"],
      ["--payer", "ZETA", "--applicability"],
    ].map((a) => [a.join(" ") || "(no flags)", a] as const),
  )("http dataset: search %s", async ([, args]) => {
    await expectParity(targets.http, ["--json", "search", ...args]);
  });
});

const policyIds = (file: string) =>
  (
    JSON.parse(readFileSync(file, "utf8")) as { policies: Array<{ policy_id: string }> }
  ).policies.map((p) => p.policy_id);

describe.concurrent("parity: policy, payers, lobs, updates", () => {
  it.for([
    ...policyIds(RULES_DATA).map((id) => ["rules", id] as const),
    ...policyIds(HTTP_DATA).map((id) => ["http", id] as const),
    ["rules", "no/such/2020-01-01"] as const,
  ])("policy %s %s", async ([key, id]) => {
    await expectParity(targets[key], ["--json", "policy", id]);
  });

  const lists: Array<[keyof typeof targets, string[]]> = [
    ["rules", ["payers"]],
    ["rules", ["payers", "--lob", "commercial"]],
    ["rules", ["payers", "--lob", "medicare_part_b,medicaid"]],
    ["rules", ["payers", "--limit", "1", "--offset", "1"]],
    ["rules", ["payers", "--all", "--limit", "1"]],
    ["http", ["payers", "--lob", "medicare_part_d"]],
    ["rules", ["lobs"]],
    ["rules", ["lobs", "--state", "CA"]],
    ["rules", ["lobs", "--payer", "P1"]],
    ["rules", ["lobs", "--lob", "commercial,medicaid", "--state", "ca,tx"]],
    ["rules", ["lobs", "--all", "--limit", "2"]],
    ["http", ["lobs", "--payer", "CMS", "--limit", "3", "--offset", "1"]],
    ["rules", ["updates"]],
    ["rules", ["updates", "--days", "365"]],
    ["rules", ["updates", "--days", "1"]],
    ["rules", ["updates", "--days", "365", "--limit", "2", "--offset", "1"]],
    ["rules", ["updates", "--all", "--limit", "1", "--days", "365"]],
    ["past", ["updates", "--days", "200"]],
    ["http", ["updates", "--days", "365", "--limit", "100"]],
    ["rules", ["updates", "--days", "0"]],
  ];
  it.for(lists.map(([key, args]) => [key, args.join(" "), args] as const))(
    "%s: %s",
    async ([key, , args]) => {
      await expectParity(targets[key], ["--json", ...args]);
    },
  );
});

describe.concurrent("parity: download", () => {
  it.for([
    ["rules", "a/pt/2025-01-01", []],
    ["rules", "a/pt/2025-01-01", ["--text"]],
    ["http", "acme/ACM101/2025-01-01", []],
    ["http", "acme/ACM101/2025-01-01", ["--text"]],
    ["http", "acme/ACM102/2025-01-01", []],
  ] as const)("download --url-only %s %s %j: same link but the url", async ([key, id, extra]) => {
    const { local, http } = await both(targets[key], ["download", id, "--url-only", ...extra]);
    expect([local.exitCode, http.exitCode]).toEqual([0, 0]);
    const l = JSON.parse(local.stdout) as { url: string };
    const h = JSON.parse(http.stdout) as { url: string };
    expect({ ...h, url: undefined }).toEqual({ ...l, url: undefined });
    expect(l.url).toMatch(/^file:\/\//);
    expect(h.url.startsWith(`${targets[key].server!.url}/files/`)).toBe(true);
  });

  it.for([
    ["rules", "a/pt/2024-01-01", []],
    ["http", "acme/ACM102/2025-01-01", ["--text"]],
    ["rules", "no/such/2020-01-01", []],
  ] as const)("download --url-only %s %s %j: the same 404", async ([key, id, extra]) => {
    const r = await expectParity(targets[key], ["download", id, "--url-only", ...extra]);
    expect(r.exitCode).toBe(4);
  });

  it.for([
    ["rules", "a/pt/2025-01-01", []],
    ["http", "acme/ACM101/2025-01-01", []],
    ["http", "acme/ACM102/2025-01-01", []],
  ] as const)("download %s %s -o -: the same bytes", async ([key, id]) => {
    const { local, http } = await both(targets[key], ["download", id, "-o", "-"]);
    expect([local.exitCode, http.exitCode]).toEqual([0, 0]);
    expect(http.bytes.length).toBeGreaterThan(0);
    expect(http.bytes.equals(local.bytes)).toBe(true);
  });
});

describe.concurrent("parity through the built binary (a sample of every command)", () => {
  it.for([
    ["rules", ["--json", "search", "--code", "CPT:97110", "--state", "CA", "--applicability"]],
    ["rules", ["--json", "search", "sleep", "apnea", "--code-groups"]],
    ["http", ["--json", "search", "--all", "--limit", "9"]],
    ["http", [...CSV_TODAY, "--format", "csv", "search", "therapy"]],
    ["rules", ["--json", "policy", "a/pt/2025-01-01"]],
    ["rules", ["--json", "policy", "no/such/2020-01-01"]],
    ["http", ["--format", "ndjson", "payers", "--all", "--limit", "1"]],
    ["http", ["--json", "lobs", "--state", "CA,TX", "--lob", "commercial"]],
    ["rules", ["--json", "updates", "--days", "365"]],
    ["rules", ["download", "a/pt/2025-01-01", "--text", "-o", "-"]],
  ] as const)("%s: %j", async ([key, args]) => {
    await expectParity(targets[key], [...args], { binary: true });
  });

  it("download --url-only: the same link but the url", async () => {
    const { local, http } = await both(
      targets.rules,
      ["download", "a/pt/2025-01-01", "--url-only"],
      {
        binary: true,
      },
    );
    expect([local.exitCode, http.exitCode]).toEqual([0, 0]);
    const h = JSON.parse(http.stdout) as { url: string };
    expect({ ...h, url: undefined }).toEqual({ ...JSON.parse(local.stdout), url: undefined });
    expect(h.url.startsWith(`${targets.rules.server!.url}/files/`)).toBe(true);
  });
});
