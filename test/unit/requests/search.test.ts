import { describe, expect, it } from "vitest";
import { runInProcess } from "../../helpers/run-cli.js";
import { UsageError } from "../../../src/errors.js";
import {
  buildSearchRequest,
  searchFlagFor,
  type SearchFlags,
} from "../../../src/requests/search.js";

async function dryRun(args: string[]) {
  const run = await runInProcess(["search", ...args, "--dry-run"]);
  const code = run.exitCode;
  return { code, stdout: run.rawStdout, stderr: run.rawStderr };
}

const cpt = (...codes: string[]) => ({ code_system: "CPT", codes });

describe("search flags -> filter request body (cli.md: only the fields the user set)", () => {
  it.each<[string, string[], unknown]>([
    ["no flags: an empty body", [], {}],
    [
      "cli.md's example",
      ["--code", "CPT:97110", "--state", "CA"],
      { policies: { code_refs: { refs: [cpt("97110")] }, states: ["CA", "NF", "SF"] } },
    ],
    [
      "cli.md's example with --exact-state",
      ["--code", "CPT:97110", "--state", "CA", "--exact-state"],
      { policies: { code_refs: { refs: [cpt("97110")] }, states: ["CA"] } },
    ],
    ["words joined by spaces", ["sleep", "apnea"], { policies: { q: "sleep apnea" } }],
    ["--query", ["--query", "sleep apnea"], { policies: { q: "sleep apnea" } }],
    [
      "comma list of codes in one ref",
      ["--code", "CPT:97110,97112"],
      { policies: { code_refs: { refs: [cpt("97110", "97112")] } } },
    ],
    [
      "repeated --code: one ref each, any case system",
      ["--code", "cpt:97110", "--code", "hcpcs:E0601"],
      {
        policies: {
          code_refs: { refs: [cpt("97110"), { code_system: "HCPCS", codes: ["E0601"] }] },
        },
      },
    ],
    [
      "alias ICD10",
      ["--code", "ICD10:E11.9"],
      { policies: { code_refs: { refs: [{ code_system: "ICD10CM", codes: ["E11.9"] }] } } },
    ],
    [
      "alias ICD-10-CM, codes kept as typed",
      ["--code", "icd-10-cm:g47.33,G4733"],
      {
        policies: { code_refs: { refs: [{ code_system: "ICD10CM", codes: ["g47.33", "G4733"] }] } },
      },
    ],
    [
      "alias cpt-modifier",
      ["--code", "cpt-modifier:59"],
      { policies: { code_refs: { refs: [{ code_system: "CPT_MODIFIER", codes: ["59"] }] } } },
    ],
    [
      "alias HCPCS-MODIFIER and HCPCS_MODIFIER",
      ["--code", "HCPCS-MODIFIER:KX", "--code", "hcpcs_modifier:GA"],
      {
        policies: {
          code_refs: {
            refs: [
              { code_system: "HCPCS_MODIFIER", codes: ["KX"] },
              { code_system: "HCPCS_MODIFIER", codes: ["GA"] },
            ],
          },
        },
      },
    ],
    [
      "--relationship on every ref, any case, _ or -",
      [
        "--code",
        "CPT:97110",
        "--code",
        "ICD10CM:M25.561",
        "--relationship",
        "does_not_cover,Covers",
      ],
      {
        policies: {
          code_refs: {
            refs: [
              { ...cpt("97110"), relationship: ["DOES_NOT_COVER", "COVERS"] },
              {
                code_system: "ICD10CM",
                codes: ["M25.561"],
                relationship: ["DOES_NOT_COVER", "COVERS"],
              },
            ],
          },
        },
      },
    ],
    [
      "--relationship repeated",
      ["--code", "CPT:97110", "--relationship", "does-not-cover", "--relationship", "REFERENCES"],
      {
        policies: {
          code_refs: {
            refs: [{ ...cpt("97110"), relationship: ["DOES_NOT_COVER", "REFERENCES"] }],
          },
        },
      },
    ],
    [
      "--match all",
      ["--code", "CPT:97110", "--code", "CPT:97112", "--match", "all"],
      { policies: { code_refs: { match: "all", refs: [cpt("97110"), cpt("97112")] } } },
    ],
    [
      "--match any sent only because it was given",
      ["--code", "CPT:97110", "--match", "ANY"],
      { policies: { code_refs: { match: "any", refs: [cpt("97110")] } } },
    ],
    [
      "repeatable + comma lists for payer, lob, lob id, state",
      [
        "--payer",
        "AETNA,CMS",
        "--payer",
        "UHC",
        "--lob",
        "commercial,Medicare-Advantage",
        "--lob-id",
        "AETNA_commercial_",
        "--lob-id",
        "CMS_medicare_part_b_NF",
        "--state",
        "ca, ny",
        "--state",
        "Tx",
      ],
      {
        policies: {
          payer_ids: ["AETNA", "CMS", "UHC"],
          lobs: ["commercial", "medicare_advantage"],
          lob_ids: ["AETNA_commercial_", "CMS_medicare_part_b_NF"],
          states: ["CA", "NY", "TX", "NF", "SF", "DN", "QN", "UN"],
        },
      },
    ],
    ["--state ca upper-cased", ["--state", "ca"], { policies: { states: ["CA", "NF", "SF"] } }],
    ["--state cnmi", ["--state", "cnmi"], { policies: { states: ["CNMI"] } }],
    [
      "--effective-start alone",
      ["--effective-start", "2024-01-01"],
      { policies: { effective_date: { start: "2024-01-01" } } },
    ],
    [
      "--effective-end alone",
      ["--effective-end", "2024-12-31"],
      { policies: { effective_date: { end: "2024-12-31" } } },
    ],
    [
      "--effective-start and --effective-end",
      ["--effective-start", "2024-01-01", "--effective-end", "2024-12-31"],
      { policies: { effective_date: { start: "2024-01-01", end: "2024-12-31" } } },
    ],
    [
      "--effective-on sets both",
      ["--effective-on", "2024-02-29"],
      { policies: { effective_date: { start: "2024-02-29", end: "2024-02-29" } } },
    ],
    ["--retired", ["--retired"], { policies: { retired: true } }],
    ["--no-retired", ["--no-retired"], { policies: { retired: false } }],
    ["--sort", ["--sort", "title_desc"], { sort: "title_desc" }],
    ["--sort any case, - for _", ["--sort", "Policy-Number-Asc"], { sort: "policy_number_asc" }],
    ["--limit", ["--limit", "5"], { limit: 5 }],
    ["--offset", ["--offset", "0"], { offset: 0 }],
    ["--limit and --offset", ["--limit", "100", "--offset", "40"], { limit: 100, offset: 40 }],
    ["--applicability", ["--applicability"], { include_applicability: true }],
    ["--code-groups", ["--code-groups"], { include_code_groups: true }],
    [
      "everything together",
      [
        "knee",
        "--code",
        "CPT:97110",
        "--relationship",
        "covers",
        "--match",
        "all",
        "--payer",
        "P1",
        "--lob",
        "commercial",
        "--lob-id",
        "P1_commercial_CA",
        "--state",
        "ca",
        "--effective-on",
        "2025-01-01",
        "--no-retired",
        "--sort",
        "relevance",
        "--limit",
        "10",
        "--offset",
        "20",
        "--applicability",
        "--code-groups",
      ],
      {
        policies: {
          q: "knee",
          code_refs: { match: "all", refs: [{ ...cpt("97110"), relationship: ["COVERS"] }] },
          payer_ids: ["P1"],
          lobs: ["commercial"],
          lob_ids: ["P1_commercial_CA"],
          states: ["CA", "NF", "SF"],
          effective_date: { start: "2025-01-01", end: "2025-01-01" },
          retired: false,
        },
        sort: "relevance",
        limit: 10,
        offset: 20,
        include_applicability: true,
        include_code_groups: true,
      },
    ],
  ])("%s", async (_name, args, body) => {
    const r = await dryRun(args);
    // Only the line saying which states were widened (sub-states.test.ts tests it).
    expect(r.stderr.replace(/^--state .* also sends .*\n/m, "")).toBe("");
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toEqual({
      method: "POST",
      url: "http://local/v1/policies/filter",
      headers: { "x-api-key": "***", "content-type": "application/json" },
      body,
    });
  });

  it("prints cli.md's example byte for byte", async () => {
    const r = await dryRun(["--code", "CPT:97110", "--state", "CA"]);
    expect(r.stdout).toContain(
      '"body":{"policies":{"code_refs":{"refs":[{"code_system":"CPT","codes":["97110"]}]},"states":["CA","NF","SF"]}}',
    );
  });
});

describe("search flags refused before any request (exit 2, nothing on stdout)", () => {
  it.each<[string, string[], RegExp[]]>([
    ["ICD10PCS", ["--code", "ICD10PCS:0B110F4"], [/does not accept ICD-10-PCS/]],
    ["ICD-10-PCS", ["--code", "icd-10-pcs:0B110F4"], [/does not accept ICD-10-PCS/]],
    [
      "no SYSTEM:",
      ["--code", "97110"],
      [/no code system/, /CPT, CPT_MODIFIER, HCPCS, HCPCS_MODIFIER, ICD10CM/],
    ],
    ["unknown system", ["--code", "LOINC:1234-5"], [/unknown code system 'LOINC'/, /ICD10CM/]],
    ["no code after the colon", ["--code", "CPT:"], [/names no code/]],
    [
      "bad relationship",
      ["--code", "CPT:97110", "--relationship", "excludes"],
      [/not a relationship/],
    ],
    [
      "--relationship without --code",
      ["--relationship", "covers"],
      [/--relationship needs --code/],
    ],
    [
      "blank --relationship",
      ["--code", "CPT:97110", "--relationship", " , "],
      [/--relationship needs at least one value/],
    ],
    ["--match without --code", ["--match", "all"], [/--match needs --code/]],
    ["words and --query", ["knee", "--query", "hip"], [/not both/]],
    [
      "--effective-on with --effective-start",
      ["--effective-on", "2024-01-01", "--effective-start", "2024-01-01"],
      [/cannot be combined/],
    ],
    ["blank --payer", ["--payer", " , "], [/--payer needs at least one value/]],
    ["blank --state", ["--state", ""], [/--state needs at least one value/]],
    [
      "limit out of range",
      ["--limit", "101"],
      [/^ {2}body\.limit: Input should be less than or equal to 100 \(--limit\)$/m],
    ],
    ["limit 0", ["--limit", "0"], [/body\.limit: Input should be greater than or equal to 1/]],
    ["limit not a number", ["--limit", "ten"], [/body\.limit: Input should be a valid integer/]],
    [
      "negative offset",
      ["--offset", "-1"],
      [/body\.offset: Input should be greater than or equal to 0/],
    ],
    [
      "bad state: the value and the closest codes, not the 63 (finding 24)",
      ["--state", "zz"],
      [
        /^\s*body\.policies\.states\.0: 'ZZ' is not a state code: did you mean AZ\? \(--state\)$/m,
        /State codes are the two-letter postal codes/,
      ],
    ],
    [
      "codes run together",
      ["--state", "ca ny"],
      [/'CA NY' holds several codes: separate them with commas, as in CA,NY/],
    ],
    ["a name begun", ["--state", "Calif"], [/'CALIF' is not a state code: did you mean CA\?/]],
    [
      "bad lob",
      ["--lob", "medicare"],
      [
        /body\.policies\.lobs\.0: 'medicare' is not a LOB category: did you mean medicare_part_a or/,
      ],
    ],
    [
      "impossible date, quoted and named once",
      ["--effective-start", "2024-02-30"],
      [/^error: --effective-start '2024-02-30' is not a real date\n(?![^]*not a real date)/],
    ],
    [
      "impossible --effective-on, said once (not for start and end)",
      ["--effective-on", "2023-02-29"],
      [
        /^error: --effective-on '2023-02-29' is not a real date\nExample: --effective-on 2026-01-31\n$/,
      ],
    ],
    [
      "not a date",
      ["--effective-end", "31/01/2026"],
      [/'31\/01\/2026' is not a date in the form YYYY-MM-DD/],
    ],
    [
      "--effective-start after --effective-end",
      ["--effective-start", "2026-03-01", "--effective-end", "2026-01-01"],
      [/--effective-start 2026-03-01 is after --effective-end 2026-01-01/],
    ],
    ["--retired with --no-retired", ["--retired", "--no-retired"], [/--retired and --no-retired/]],
    ["--no-retired with --retired", ["--no-retired", "--retired"], [/--retired and --no-retired/]],
    [
      "a code of another system",
      ["--code", "CPT:E0601"],
      [/E0601 is a HCPCS Level II code: did you mean HCPCS:E0601\?/],
    ],
    [
      "an ICD-10-CM code as CPT",
      ["--code", "CPT:97110,M25.561"],
      [/M25\.561 is an ICD-10-CM code: did you mean ICD10CM:M25\.561\?/],
    ],
    [
      "a code of no system",
      ["--code", "HCPCS:0601E"],
      [/'0601E' is not a HCPCS Level II code/, /a letter and 4 digits/],
    ],
    [
      "a space inside a code shows the comma form",
      ["--code", "CPT:97110 97112"],
      [/'97110 97112': a code cannot hold a space/, /--code CPT:97110,97112/],
    ],
    [
      "a state written out",
      ["--state", "California"],
      [/--state 'California' is a state name.*did you mean --state CA\?/],
    ],
    ["a state written out, any case", ["--state", "ca,new york"], [/did you mean --state NY\?/]],
    [
      "bad sort",
      ["--sort", "newest"],
      [/body\.sort: Input should be 'policy_id_asc'.* \(--sort\)/],
    ],
    [
      "bad match",
      ["--code", "CPT:97110", "--match", "some"],
      [/body\.policies\.code_refs\.match: Input should be 'any' or 'all' \(--match\)/],
    ],
    [
      "every problem reported",
      ["--limit", "500", "--offset", "-3", "--state", "QQ"],
      [/body\.limit:/, /body\.offset:/, /body\.policies\.states\.0:/],
    ],
  ])("%s", async (_name, args, patterns) => {
    const r = await dryRun(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    for (const p of patterns) expect(r.stderr).toMatch(p);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("buildSearchRequest with --body (flags override its fields)", () => {
  const body = {
    policies: {
      q: "from body",
      code_refs: { match: "all", refs: [cpt("97110"), cpt("97112")] },
      states: ["NY"],
      effective_date: { start: "2020-01-01", end: "2020-12-31" },
      retired: true,
    },
    sort: "title_asc",
    limit: 7,
    include_applicability: false,
  };
  it.each<[string, SearchFlags, unknown]>([
    ["no flags: the body as is", {}, body],
    [
      "words override q",
      { words: ["knee"] },
      { ...body, policies: { ...body.policies, q: "knee" } },
    ],
    [
      "--state replaces states",
      { state: ["ca"] },
      { ...body, policies: { ...body.policies, states: ["CA", "NF", "SF"] } },
    ],
    [
      "--code replaces refs, keeps the body's match",
      { code: ["CPT:97530"] },
      {
        ...body,
        policies: { ...body.policies, code_refs: { match: "all", refs: [cpt("97530")] } },
      },
    ],
    [
      "--match overrides match, keeps refs",
      { match: "any" },
      {
        ...body,
        policies: {
          ...body.policies,
          code_refs: { match: "any", refs: [cpt("97110"), cpt("97112")] },
        },
      },
    ],
    [
      "--relationship applies to the body's refs",
      { relationship: ["covers"] },
      {
        ...body,
        policies: {
          ...body.policies,
          code_refs: {
            match: "all",
            refs: [
              { ...cpt("97110"), relationship: ["COVERS"] },
              { ...cpt("97112"), relationship: ["COVERS"] },
            ],
          },
        },
      },
    ],
    [
      "--effective-end overrides only end",
      { effectiveEnd: "2021-06-30" },
      {
        ...body,
        policies: { ...body.policies, effective_date: { start: "2020-01-01", end: "2021-06-30" } },
      },
    ],
    [
      "--no-retired overrides retired",
      { retired: false },
      { ...body, policies: { ...body.policies, retired: false } },
    ],
    [
      "--sort, --limit, --offset, --applicability override",
      { sort: "policy_id_desc", limit: "3", offset: "6", applicability: true },
      { ...body, sort: "policy_id_desc", limit: 3, offset: 6, include_applicability: true },
    ],
  ])("%s", (_name, flags, expected) => {
    expect(buildSearchRequest(flags, structuredClone(body))).toEqual(expected);
  });

  it("keeps unknown fields of the body for the schema to refuse", () => {
    expect(buildSearchRequest({ state: ["ca"] }, { policies: { bogus: 1 }, extra: 2 })).toEqual({
      policies: { bogus: 1, states: ["CA", "NF", "SF"] },
      extra: 2,
    });
  });

  it("keeps policies: null when no flag sets a filter", () => {
    expect(buildSearchRequest({ limit: "5" }, { policies: null })).toEqual({
      policies: null,
      limit: 5,
    });
  });

  it.each([[[1, 2]], ["text"], [null], [3]])("refuses a body that is not an object: %j", (b) => {
    expect(() => buildSearchRequest({}, b)).toThrow(UsageError);
  });

  it("--all adds no limit of its own (only the fields given are sent)", () => {
    expect(buildSearchRequest({ all: true })).toEqual({});
    expect(buildSearchRequest({ all: true, limit: "5" })).toEqual({ limit: 5 });
    expect(buildSearchRequest({ all: true }, { limit: 9 })).toEqual({ limit: 9 });
  });
});

describe("searchFlagFor (names the flag beside a validation message)", () => {
  it.each<[Array<string | number>, string | undefined]>([
    [["body", "limit"], "--limit"],
    [["body", "offset"], "--offset"],
    [["body", "sort"], "--sort"],
    [["body", "policies", "states", 2], "--state"],
    [["body", "policies", "lobs", 0], "--lob"],
    [["body", "policies", "lob_ids", 0], "--lob-id"],
    [["body", "policies", "payer_ids", 0], "--payer"],
    [["body", "policies", "code_refs", "match"], "--match"],
    [["body", "policies", "code_refs", "refs", 0, "codes"], "--code"],
    [["body", "policies", "effective_date", "end"], "--effective-end or --effective-on"],
    [["body", "policies", "q"], "--query"],
    [["body", "extra"], undefined],
  ])("%j -> %s", (loc, flag) => {
    expect(searchFlagFor(loc)).toBe(flag);
  });

  it.each<[Array<string | number>, SearchFlags, string | undefined]>([
    [["body", "policies", "states", 0], { state: ["zz"] }, "--state"],
    [["body", "policies", "states", 0], { payer: ["A"] }, undefined],
    [["body", "policies", "q"], { words: ["knee"] }, "--query"],
    [["body", "policies", "q"], { words: [] }, undefined],
    [
      ["body", "policies", "effective_date", "start"],
      { effectiveOn: "x" },
      "--effective-start or --effective-on",
    ],
    [["body", "limit"], {}, undefined],
  ])("with the flags given: %j %j -> %s", (loc, given, flag) => {
    expect(searchFlagFor(loc, given)).toBe(flag);
  });
});
