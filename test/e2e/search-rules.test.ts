import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

// The built CLI against small datasets made for one rule each (test/fixtures/engine-rules/).
const DIR = path.join(ROOT, "test", "fixtures", "engine-rules");
const data = (name: string) => path.join(DIR, name);
const TIME = data("time.json");
const SCOPE = data("scope.json");
const CODES = data("codes.json");
const TEXT = data("text.json");
const SHAPES = data("shapes.json");

interface Item {
  policy_id: string;
  score: number | null;
  applicability: unknown;
  code_groups: unknown;
}
interface Envelope {
  data: Item[];
  limit: number;
  offset: number;
  has_more: boolean;
}

const runs = new Map<string, Promise<Envelope>>();

/**
 * `coverage --data FILE search ARGS --json`, checked to succeed; the parsed envelope. The same
 * command line runs once per file (several tests compare against the same full list).
 */
function search(file: string, args: string[], env: Record<string, string> = {}) {
  const key = JSON.stringify([file, args, env]);
  let result = runs.get(key);
  if (!result) {
    result = runInProcess(["--data", file, "search", ...args, "--json"], { env }).then((r) => {
      if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}: ${r.stderr}`);
      return JSON.parse(r.stdout) as Envelope;
    });
    runs.set(key, result);
  }
  return result;
}

async function searchIds(file: string, args: string[], env: Record<string, string> = {}) {
  return (await search(file, [...args, "--limit", "100"], env)).data.map((p) => p.policy_id);
}

describe.concurrent("rule Filter 1: retired", () => {
  it.each<[string, string[], string[]]>([
    ["--retired", ["--retired"], ["t/ended-today/2025-01-01", "t/retired/2022-01-01"]],
    [
      "--no-retired keeps upcoming versions",
      ["--no-retired"],
      ["t/active/2024-01-01", "t/long/2010-01-01", "t/upcoming/2026-07-01"],
    ],
    [
      "neither: both",
      [],
      [
        "t/active/2024-01-01",
        "t/ended-today/2025-01-01",
        "t/long/2010-01-01",
        "t/retired/2022-01-01",
        "t/upcoming/2026-07-01",
      ],
    ],
  ])("%s", async (_name, args, expected) => {
    expect(await searchIds(TIME, args)).toEqual(expected);
  });
});

describe.concurrent("rule Filter 2: effective window overlap (inclusive bounds, null ends)", () => {
  it.each<[string, string[], string[]]>([
    [
      "--effective-on the day a version ended drops it (to is exclusive)",
      ["--effective-on", "2024-01-01"],
      ["t/active/2024-01-01", "t/long/2010-01-01"],
    ],
    [
      "the day before keeps it",
      ["--effective-start", "2023-12-31", "--effective-end", "2023-12-31"],
      ["t/long/2010-01-01", "t/retired/2022-01-01"],
    ],
    ["end before every start: nothing", ["--effective-end", "2009-12-31"], []],
    ["end inclusive on a start date", ["--effective-end", "2010-01-01"], ["t/long/2010-01-01"]],
    [
      "open end: still in effect on or after the start",
      ["--effective-start", "2026-06-01"],
      ["t/active/2024-01-01", "t/long/2010-01-01", "t/upcoming/2026-07-01"],
    ],
  ])("%s", async (_name, args, expected) => {
    expect(await searchIds(TIME, args)).toEqual(expected);
  });
});

describe.concurrent("rule Filter 3: which links the scope filters use", () => {
  it.each<[string, string[], string[]]>([
    ["current: links ended today or before do not count", ["--payer", "BCB"], []],
    ["--retired: every link ever", ["--payer", "BCB", "--retired"], ["t/ended-today/2025-01-01"]],
    [
      "a window: the links of that time",
      ["--payer", "BCB", "--effective-on", "2024-06-01"],
      ["t/active/2024-01-01"],
    ],
    ["current includes links that start later", ["--payer", "UHC"], ["t/active/2024-01-01"]],
    [
      "current as of the dataset's as_of",
      ["--payer", "AET", "--state", "CA"],
      ["t/active/2024-01-01", "t/long/2010-01-01"],
    ],
  ])("%s", async (_name, args, expected) => {
    expect(await searchIds(TIME, args)).toEqual(expected);
  });

  it("--today overrides as_of", async () => {
    expect(
      await searchIds(TIME, ["--payer", "AET", "--state", "CA", "--today", "2026-10-01"]),
    ).toEqual(["t/long/2010-01-01"]);
  });

  it("COVERAGE_TODAY overrides as_of", async () => {
    expect(
      await searchIds(TIME, ["--payer", "AET", "--state", "CA"], { COVERAGE_TODAY: "2026-10-01" }),
    ).toEqual(["t/long/2010-01-01"]);
  });

  it("--today beats COVERAGE_TODAY", async () => {
    expect(
      await searchIds(TIME, ["--payer", "AET", "--state", "CA", "--today", "2026-06-01"], {
        COVERAGE_TODAY: "2026-10-01",
      }),
    ).toEqual(["t/active/2024-01-01", "t/long/2010-01-01"]);
  });

  it("without as_of, today is the real date", async () => {
    const noAsOf = data("no-as-of.json");
    expect(await searchIds(noAsOf, ["--payer", "AET"])).toEqual([]);
    expect(await searchIds(noAsOf, ["--payer", "BCB"])).toEqual(["n/x/1990-01-01"]);
    expect(await searchIds(noAsOf, ["--payer", "AET", "--today", "1995-01-01"])).toEqual([
      "n/x/1990-01-01",
    ]);
  });

  it("include_applicability uses the same links (current: future starts in, ended out)", async () => {
    const out = await search(TIME, ["--payer", "UHC", "--applicability"]);
    expect(out.data.map((p) => p.applicability)).toEqual([
      [
        { payer_ids: ["AET"], payer_names: ["Aetna"], lobs: ["commercial"], state: "CA" },
        { payer_ids: ["UHC"], payer_names: ["United"], lobs: ["commercial"], state: "TX" },
      ],
    ]);
    const windowed = await search(TIME, [
      "--payer",
      "BCB",
      "--effective-on",
      "2024-06-01",
      "--applicability",
    ]);
    expect(windowed.data[0]?.applicability).toEqual([
      { payer_ids: ["AET"], payer_names: ["Aetna"], lobs: ["commercial"], state: "CA" },
      { payer_ids: ["BCB"], payer_names: ["blue Cross"], lobs: ["medicaid"], state: "TX" },
    ]);
  });
});

describe.concurrent("rule Filter 4: one link for payer + LOB + LOB id + state", () => {
  it.each<[string, string[], string[]]>([
    [
      "states: the state's links and every nationwide one",
      ["--state", "CA", "--exact-state"],
      [
        "s/ca/2020-01-01",
        "s/cms/2020-01-01",
        "s/nation/2020-01-01",
        "s/opaque/2020-01-01",
        "s/split/2020-01-01",
      ],
    ],
    [
      "a state Medicare splits brings its sub-state jurisdictions (CA: NF, SF)",
      ["--state", "CA"],
      [
        "s/ca/2020-01-01",
        "s/cms-nf/2020-01-01",
        "s/cms/2020-01-01",
        "s/nation/2020-01-01",
        "s/opaque/2020-01-01",
        "s/split/2020-01-01",
      ],
    ],
    [
      "states any case, a Medicare jurisdiction as typed",
      ["--state", "nf", "--exact-state"],
      ["s/cms-nf/2020-01-01", "s/cms/2020-01-01", "s/nation/2020-01-01", "s/opaque/2020-01-01"],
    ],
    [
      "a Medicare jurisdiction brings its state's statewide policies",
      ["--state", "nf"],
      [
        "s/ca/2020-01-01",
        "s/cms-nf/2020-01-01",
        "s/cms/2020-01-01",
        "s/nation/2020-01-01",
        "s/opaque/2020-01-01",
        "s/split/2020-01-01",
      ],
    ],
    [
      "payer + state on one link",
      ["--payer", "AET", "--state", "CA"],
      ["s/ca/2020-01-01", "s/nation/2020-01-01"],
    ],
    [
      "payer + category + state on one link",
      ["--payer", "AET", "--lob", "medicaid", "--state", "NY"],
      ["s/split/2020-01-01"],
    ],
    [
      "payer + category + state split over two links: no match",
      ["--payer", "AET", "--lob", "medicaid", "--state", "CA"],
      [],
    ],
    ["payer + another payer's category", ["--payer", "BCB", "--lob", "medicaid"], []],
    [
      "lists OR-ed inside, AND-ed across",
      ["--payer", "AET,BCB", "--lob", "commercial", "--state", "ca"],
      ["s/ca/2020-01-01", "s/nation/2020-01-01", "s/split/2020-01-01"],
    ],
    [
      "trailing-separator LOB id: the nationwide LOB",
      ["--lob-id", "AET_commercial_"],
      ["s/nation/2020-01-01"],
    ],
    [
      "trailing-separator LOB id with an opaque nationwide id",
      ["--lob-id", "UHC_commercial_"],
      ["s/opaque/2020-01-01"],
    ],
    ["exact LOB id", ["--lob-id", "CMS_medicare_part_b_NF"], ["s/cms-nf/2020-01-01"]],
    ["LOB id + another payer", ["--lob-id", "AET_commercial_CA", "--payer", "BCB"], []],
    [
      "LOB id + payer + category + state all on one link",
      ["--lob-id", "BCB_commercial_CA", "--payer", "BCB", "--lob", "commercial", "--state", "CA"],
      ["s/split/2020-01-01"],
    ],
  ])("%s", async (_name, args, expected) => {
    expect(await searchIds(SCOPE, args)).toEqual(expected);
  });
});

describe.concurrent("rule Filter 5: codes", () => {
  it.each<[string, string[], string[]]>([
    [
      "ICD-10-CM dotted query finds dotted and dotless data",
      ["--code", "icd10:g47.33", "--sort", "policy_id_asc"],
      ["k/dotless/2020-01-01", "k/dotted/2020-01-01"],
    ],
    [
      "ICD-10-CM dotless query, same result",
      ["--code", "ICD10CM:G4733", "--sort", "policy_id_asc"],
      ["k/dotless/2020-01-01", "k/dotted/2020-01-01"],
    ],
    ["case-insensitive codes", ["--code", "HCPCS:E0601"], ["k/dotted/2020-01-01"]],
    // The flag refuses a CPT-shaped code under HCPCS (exit 2); a body still asks the engine.
    ["other system, same code: no match", ["--body", data("bodies/hcpcs-97110.json")], []],
    [
      "relationship covers",
      ["--code", "CPT:97110", "--relationship", "covers"],
      ["k/dotless/2020-01-01"],
    ],
    [
      "relationship does-not-cover",
      ["--code", "CPT:97110", "--relationship", "does-not-cover"],
      ["k/exercise/2020-01-01"],
    ],
    [
      "relationship list OR-ed",
      ["--code", "CPT:97110", "--relationship", "Covers,DOES_NOT_COVER", "--sort", "policy_id_asc"],
      ["k/dotless/2020-01-01", "k/exercise/2020-01-01"],
    ],
    [
      "match any (default)",
      ["--code", "CPT:97110", "--code", "ICD10:G47.33", "--sort", "policy_id_asc"],
      ["k/dotless/2020-01-01", "k/dotted/2020-01-01", "k/exercise/2020-01-01"],
    ],
    [
      "match all",
      ["--code", "CPT:97110", "--code", "ICD10:G47.33", "--match", "all"],
      ["k/dotless/2020-01-01"],
    ],
  ])("%s", async (_name, args, expected) => {
    expect(await searchIds(CODES, args)).toEqual(expected);
  });
});

describe.concurrent("rules Filter 6 and Ordering: q ranks, never filters", () => {
  it("returns every version, matching ones first by score, the rest with null by id", async ({
    expect,
  }) => {
    const out = await search(TEXT, ["knee", "--limit", "100"]);
    expect(out.data).toHaveLength(27);
    const [first, second, ...rest] = out.data;
    // The title hit outranks the same words in a summary.
    expect(first?.policy_id).toBe("x/title/2020-01-01");
    expect(second?.policy_id).toBe("x/summary/2020-01-01");
    expect(first?.score).toBeGreaterThan(second?.score as number);
    expect(second?.score).toBeGreaterThan(0);
    expect(rest.every((p) => p.score === null)).toBe(true);
    const tail = rest.map((p) => p.policy_id);
    expect(tail).toEqual([...tail].sort());
    // Markup (tag attributes, link targets, comments) is not matched.
    expect(tail).toContain("x/markup/2020-01-01");
  });

  it("--query and words are the same, case-insensitive", async ({ expect }) => {
    const a = await search(TEXT, ["KNEE", "Brace!"]);
    const b = await search(TEXT, ["--query", "knee brace"]);
    expect(a).toEqual(b);
  });

  it("words in the visible text of markup do match", async ({ expect }) => {
    const out = await search(TEXT, ["walking", "aids", "bold", "--limit", "1"]);
    expect(out.data[0]).toMatchObject({ policy_id: "x/markup/2020-01-01" });
    expect(out.data[0]?.score).toBeGreaterThan(0);
  });

  it("ranks by the filtered codes' descriptions when there is no q", async ({ expect }) => {
    const out = await search(CODES, ["--code", "icd10:g47.33"]);
    expect(out.data.map((p) => [p.policy_id, p.score === null ? null : "number"])).toEqual([
      ["k/dotted/2020-01-01", "number"],
      ["k/dotless/2020-01-01", null],
    ]);
  });

  it("only the first 20 codes' descriptions rank", async ({ expect }) => {
    const filler = Array.from({ length: 19 }, (_, i) => String(10000 + i));
    const late = await search(CODES, ["--code", `CPT:97110,${filler.join(",")},99999`]);
    expect(late.data.map((p) => [p.policy_id, p.score === null])).toEqual([
      ["k/exercise/2020-01-01", false],
      ["k/dotless/2020-01-01", true],
      ["k/zebra/2020-01-01", true],
    ]);
    const early = await search(CODES, ["--code", "CPT:99999,97110"]);
    expect(
      early.data
        .filter((p) => p.score !== null)
        .map((p) => p.policy_id)
        .sort(),
    ).toEqual(["k/exercise/2020-01-01", "k/zebra/2020-01-01"]);
  });

  it("no q and no codes: policy id order, every score null", async ({ expect }) => {
    const out = await search(TEXT, ["--limit", "100"]);
    const order = out.data.map((p) => p.policy_id);
    expect(order[0]).toBe("Y/3/2020-01-01");
    expect(order).toEqual([...order].sort());
    expect(out.data.every((p) => p.score === null)).toBe(true);
  });
});

describe.concurrent("rule Ordering: the other sorts", () => {
  it.each<[string, (ids: string[]) => void]>([
    [
      "title_asc",
      (ids) =>
        expect(ids.slice(0, 3)).toEqual(["y/1/2020-01-01", "y/2/2020-01-01", "Y/3/2020-01-01"]),
    ],
    [
      "title_desc",
      (ids) =>
        expect(ids.slice(-4)).toEqual([
          "z/00/2020-01-01",
          "Y/3/2020-01-01",
          "y/2/2020-01-01",
          "y/1/2020-01-01",
        ]),
    ],
    [
      "policy_number_asc",
      (ids) => {
        const i = ids.indexOf("y/1/2020-01-01");
        expect(ids.slice(i, i + 3)).toEqual(["y/1/2020-01-01", "y/2/2020-01-01", "Y/3/2020-01-01"]);
        expect(ids[0]).toBe("z/00/2020-01-01");
      },
    ],
    [
      "policy_number_desc",
      (ids) => {
        const i = ids.indexOf("Y/3/2020-01-01");
        expect(ids.slice(i, i + 3)).toEqual(["Y/3/2020-01-01", "y/2/2020-01-01", "y/1/2020-01-01"]);
      },
    ],
    [
      "policy_id_asc",
      (ids) =>
        expect(ids.slice(0, 3)).toEqual([
          "Y/3/2020-01-01",
          "x/markup/2020-01-01",
          "x/none/2020-01-01",
        ]),
    ],
    [
      "policy_id_desc",
      (ids) => expect(ids.slice(-2)).toEqual(["x/markup/2020-01-01", "Y/3/2020-01-01"]),
    ],
  ])("%s, scores null even with q", async (sort, check) => {
    const out = await search(TEXT, ["knee", "--sort", sort, "--limit", "100"]);
    check(out.data.map((p) => p.policy_id));
    expect(out.data.every((p) => p.score === null)).toBe(true);
  });
});

describe.concurrent("pagination and output formats", () => {
  it.each([
    { limit: 7, offset: 14, count: 7, has_more: true },
    { limit: 7, offset: 21, count: 6, has_more: false },
    { limit: 6, offset: 21, count: 6, has_more: false },
    { limit: 6, offset: 20, count: 6, has_more: true },
    { limit: undefined, offset: undefined, count: 20, has_more: true },
  ])("limit $limit offset $offset", async ({ limit, offset, count, has_more }) => {
    const all = await searchIds(TEXT, ["knee"]);
    const args = [
      ...(limit === undefined ? [] : ["--limit", String(limit)]),
      ...(offset === undefined ? [] : ["--offset", String(offset)]),
    ];
    const out = await search(TEXT, ["knee", ...args]);
    // The envelope echoes what was asked, with the API's defaults when nothing was.
    expect(out).toMatchObject({ limit: limit ?? 20, offset: offset ?? 0, has_more });
    expect(all).toHaveLength(27);
    const from = offset ?? 0;
    expect(out.data.map((p) => p.policy_id)).toEqual(all.slice(from, from + count));
  });

  it("--all: pages concatenated into one envelope, offset 0, has_more false", async ({
    expect,
  }) => {
    const all = await searchIds(TEXT, ["knee"]);
    const out = await search(TEXT, ["knee", "--all", "--limit", "4"]);
    expect(out.data.map((p) => p.policy_id)).toEqual(all);
    expect(out).toMatchObject({ offset: 0, has_more: false });
    const scores = (await search(TEXT, ["knee", "--limit", "100"])).data.map((p) => p.score);
    expect(out.data.map((p) => p.score)).toEqual(scores);
  });

  it("--all --format ndjson: one item per line, every page", async ({ expect }) => {
    const all = await searchIds(TEXT, ["knee"]);
    const r = await runInProcess([
      "--data",
      TEXT,
      "search",
      "knee",
      "--all",
      "--limit",
      "5",
      "--format",
      "ndjson",
    ]);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as Item).policy_id)).toEqual(all);
  });

  it("--format csv: a header row, one RFC 4180 row per item", async ({ expect }) => {
    const r = await runInProcess([
      "--data",
      TEXT,
      "search",
      "sleep",
      "--limit",
      "2",
      "--applicability",
      "--format",
      "csv",
    ]);
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.split("\r\n");
    expect(rows[0]).toBe(
      "policy_id,policy_number,title,effective_from_date,effective_to_date,file_url,file_type,listing_url,summary,score,payer_ids,payer_names,scopes,status",
    );
    expect(rows[1]).toMatch(/^x\/none\/2020-01-01,X-4,"Sleep apnea, ""adult""",2020-01-01,,/);
    // The header and two rows (execa drops the final line break).
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatch(/^Y\/3\/2020-01-01,n-2,beta,/);
  });

  it("--json without include flags: applicability and code_groups are null", async ({ expect }) => {
    const out = await search(SHAPES, []);
    expect(out.data.map((p) => [p.applicability, p.code_groups])).toEqual([
      [null, null],
      [null, null],
    ]);
  });
});

describe.concurrent("rule Shapes: applicability and code groups", () => {
  it("groups payers by state and category set; nationwide first, then state, then payer", async ({
    expect,
  }) => {
    const out = await search(SHAPES, ["--applicability", "--sort", "policy_id_asc"]);
    expect(out.data.map((p) => [p.policy_id, p.applicability])).toEqual([
      [
        "h/app/2020-01-01",
        [
          {
            payer_ids: ["AET", "BCB"],
            payer_names: ["Aetna", "blue Cross"],
            lobs: ["commercial"],
            state: null,
          },
          {
            payer_ids: ["CMS"],
            payer_names: ["Medicare (CMS)"],
            lobs: ["medicare_part_a", "medicare_part_b"],
            state: null,
          },
          {
            payer_ids: ["AET"],
            payer_names: ["Aetna"],
            lobs: ["commercial", "medicaid"],
            state: "CA",
          },
          { payer_ids: ["BCB"], payer_names: ["blue Cross"], lobs: ["commercial"], state: "CA" },
          {
            payer_ids: ["UHC"],
            payer_names: ["United"],
            lobs: ["commercial", "medicare_advantage"],
            state: "TX",
          },
        ],
      ],
      ["h/empty/2020-01-01", []],
    ]);
    expect(out.data.every((p) => p.code_groups === null)).toBe(true);
  });

  it("code groups: system, relationship, category (null first); dataset order; descriptions when all known", async ({
    expect,
  }) => {
    const out = await search(SHAPES, ["--code-groups", "--sort", "policy_id_asc"]);
    expect(out.data.map((p) => p.code_groups)).toEqual([
      [
        { code_system: "CPT", relationship: "COVERS", category: null, codes: ["97530"] },
        {
          code_system: "CPT",
          relationship: "COVERS",
          category: "Therapy",
          codes: ["97112", "97110"],
          descriptions: ["Test text two", "Test text one"],
        },
        {
          code_system: "CPT",
          relationship: "DOES_NOT_COVER",
          category: null,
          codes: ["97110"],
          descriptions: ["Test text one"],
        },
        { code_system: "CPT_MODIFIER", relationship: "REFERENCES", category: null, codes: ["59"] },
        {
          code_system: "ICD10CM",
          relationship: "COVERS",
          category: null,
          codes: ["M25.561"],
          descriptions: ["Pain in right knee"],
        },
      ],
      [],
    ]);
    expect(out.data.every((p) => p.applicability === null)).toBe(true);
  });

  it("code groups of a version found by code: system order beats dataset order", async ({
    expect,
  }) => {
    const out = await search(CODES, ["--code", "HCPCS:e0601", "--code-groups"]);
    expect(out.data[0]?.code_groups).toEqual([
      {
        code_system: "HCPCS",
        relationship: "DOES_NOT_COVER",
        category: null,
        codes: ["e0601"],
        descriptions: ["Test text: airway pressure device"],
      },
      {
        code_system: "ICD10CM",
        relationship: "COVERS",
        category: null,
        codes: ["G47.33"],
        descriptions: ["Obstructive sleep apnea"],
      },
    ]);
  });
});

describe.concurrent("--dry-run and --body", () => {
  const DRY = {
    method: "POST",
    url: "http://local/v1/policies/filter",
    headers: { "x-api-key": "***", "content-type": "application/json" },
  };
  it.each<[string[], unknown]>([
    [
      ["--code", "CPT:97110", "--state", "CA", "--exact-state"],
      {
        policies: {
          code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
          states: ["CA"],
        },
      },
    ],
    [
      ["--code", "icd-10-cm:E11.9", "--relationship", "does_not_cover,Covers", "--match", "all"],
      {
        policies: {
          code_refs: {
            match: "all",
            refs: [
              {
                code_system: "ICD10CM",
                codes: ["E11.9"],
                relationship: ["DOES_NOT_COVER", "COVERS"],
              },
            ],
          },
        },
      },
    ],
    [
      [
        "--effective-on",
        "2025-01-01",
        "--no-retired",
        "--sort",
        "title_asc",
        "--limit",
        "5",
        "--offset",
        "10",
      ],
      {
        policies: { effective_date: { start: "2025-01-01", end: "2025-01-01" }, retired: false },
        sort: "title_asc",
        limit: 5,
        offset: 10,
      },
    ],
    [
      ["--applicability", "--code-groups", "--retired"],
      { policies: { retired: true }, include_applicability: true, include_code_groups: true },
    ],
    [
      ["--body", data("bodies/knee-ca.json"), "--state", "ny", "--exact-state", "--limit", "9"],
      {
        policies: { q: "knee", states: ["NY"], retired: false },
        sort: "title_asc",
        limit: 9,
      },
    ],
  ])("%j", async (args, body) => {
    const r = await runInProcess(["--data", TEXT, "search", ...args, "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ ...DRY, body });
  });

  it("--body FILE runs the body it holds", async ({ expect }) => {
    const out = await search(SCOPE, ["--body", data("bodies/knee-ca.json")]);
    expect(out.limit).toBe(3);
    expect(out.data.map((p) => p.policy_id)).toEqual([
      "s/ca/2020-01-01",
      "s/cms/2020-01-01",
      "s/nation/2020-01-01",
    ]);
  });

  it("--body - reads stdin", async ({ expect }) => {
    const r = await runInProcess(
      ["--data", SCOPE, "search", "--body", "-", "--payer", "AET", "--json"],
      {
        input: JSON.stringify({
          policies: { states: ["CA"], payer_ids: ["BCB"] },
          sort: "policy_id_desc",
        }),
      },
    );
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as Envelope;
    expect(out.data.map((p) => p.policy_id)).toEqual(["s/nation/2020-01-01", "s/ca/2020-01-01"]);
  });

  it("--body with unknown fields: exit 2, each named, nothing on stdout", async ({ expect }) => {
    const r = await runInProcess([
      "--data",
      SCOPE,
      "search",
      "--body",
      data("bodies/unknown-field.json"),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("body.policies.text: Extra inputs are not permitted");
    expect(r.stderr).toContain("body.page: Extra inputs are not permitted");
  });

  it("a bad value from --body is not blamed on a flag; one from a flag is", async ({ expect }) => {
    const r = await runInProcess(["--data", SCOPE, "search", "--body", "-", "--limit", "500"], {
      input: JSON.stringify({ policies: { states: ["zz"] } }),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^\s*body\.policies\.states\.0: 'zz' is not a state code: did you mean AZ\?$/m,
    );
    expect(r.stderr).toMatch(
      /^\s*body\.limit: Input should be less than or equal to 100 \(--limit\)$/m,
    );
  });

  it.each([
    ["bodies/not-object.json", /--body must hold a JSON object/],
    ["not-json.json", /is not valid JSON/],
    ["missing.json", /cannot read/],
  ])("--body %s: exit 2", async (file, message) => {
    const r = await runInProcess(["--data", SCOPE, "search", "--body", data(file)]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });
});

describe.concurrent("invalid values: exit 2, `loc: message` lines, nothing on stdout", () => {
  it.each<[string[], string[]]>([
    [["--limit", "101"], ["body.limit: Input should be less than or equal to 100"]],
    [["--limit", "0"], ["body.limit: Input should be greater than or equal to 1"]],
    [["--limit", "x"], ["body.limit: Input should be a valid integer"]],
    [["--offset", "-1"], ["body.offset: Input should be greater than or equal to 0"]],
    [["--state", "zz"], ["body.policies.states.0: 'ZZ' is not a state code: did you mean AZ?"]],
    [["--lob", "medicare"], ["body.policies.lobs.0: Input should be 'commercial'"]],
    [
      ["--effective-start", "2024-02-30"],
      ["error: --effective-start '2024-02-30' is not a real date"],
    ],
    [["--sort", "newest"], ["body.sort: Input should be 'policy_id_asc'"]],
    [
      ["--code", "CPT:97110", "--match", "most"],
      ["body.policies.code_refs.match: Input should be 'any' or 'all'"],
    ],
    [
      ["--limit", "200", "--state", "CA,qq", "--offset", "-2"],
      [
        "body.limit: Input should be less than or equal to 100",
        "body.policies.states.1: 'QQ' is not a state code",
        "body.offset: Input should be greater than or equal to 0",
      ],
    ],
  ])("%j", async (args, lines) => {
    const r = await runInProcess(["--data", TEXT, "search", ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    for (const line of lines)
      expect(r.stderr).toMatch(
        new RegExp(`^\\s*${line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m"),
      );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each<[string[], RegExp]>([
    [["--code", "97110"], /no code system.*\n.*CPT, CPT_MODIFIER, HCPCS, HCPCS_MODIFIER, ICD10CM/],
    [["--code", "ICD10PCS:0B110F4"], /does not accept ICD-10-PCS/],
    [["--code", "ICD-10-PCS:0B110F4"], /does not accept ICD-10-PCS/],
    [["--today", "2024-02-30"], /today: '2024-02-30' \(from --today\) is not a real date/],
  ])("%j", async (args, message) => {
    const r = await runInProcess(["--data", TEXT, "search", ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });
});

describe.concurrent("a bad dataset: exit 2, the file and the JSON path named", () => {
  it.each([
    ["bad-code-system.json", "policies[0].codes[0].code_system"],
    ["bad-date.json", "policies[1].effective_from_date"],
    ["bad-lob-ref.json", "policies[0].applicability[1].lob_id"],
    ["not-json.json", "not valid JSON"],
  ])("%s", async (file, where) => {
    const r = await runInProcess(["--data", data(file), "search", "--json"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain(where);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("COVERAGE_DATA names the file the same way", async ({ expect }) => {
    const r = await runInProcess(["search"], {
      env: { COVERAGE_DATA: data("bad-code-system.json") },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("bad-code-system.json");
    expect(r.stderr).toContain("policies[0].codes[0].code_system");
  });
});
