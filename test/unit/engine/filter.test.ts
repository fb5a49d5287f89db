import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FilterRequest, PolicyFilter, Sort } from "../../../src/contract/index.js";
import { extractRankingTerms } from "../../../src/engine/filter.js";
import { handleApiRequest } from "../../../src/engine/router.js";
import { allIds, code, ids, link, policy, rulesDb, run } from "./rules-fixture.js";

// Versions of every state relative to today (the fixture as_of, 2026-06-01).
const timeDb = rulesDb([
  policy("t/active/2024-01-01"),
  policy("t/retired/2023-01-01", { effective_to_date: "2024-01-01" }),
  policy("t/upcoming/2026-07-01"),
  policy("t/upcoming-ended/2026-07-01", { effective_to_date: "2026-12-01" }),
  policy("t/ended-today/2025-01-01", { effective_to_date: "2026-06-01" }),
]);

describe("retired filter (rule Filter 1)", () => {
  it.each<{ retired: boolean | null | undefined; expected: string[] }>([
    {
      retired: true,
      expected: ["t/ended-today/2025-01-01", "t/retired/2023-01-01", "t/upcoming-ended/2026-07-01"],
    },
    { retired: false, expected: ["t/active/2024-01-01", "t/upcoming/2026-07-01"] },
    { retired: null, expected: timeDb.policies.map((p) => p.policy_id) },
    { retired: undefined, expected: timeDb.policies.map((p) => p.policy_id) },
  ])("retired=$retired", ({ retired, expected }) => {
    const policies: PolicyFilter = retired === undefined ? {} : { retired };
    expect(allIds(timeDb, { policies })).toEqual(expected);
  });
});

describe("effective_date window on versions (rule Filter 2)", () => {
  it.each<{ name: string; start: string | null; end: string | null; expected: string[] }>([
    {
      name: "start on a version's exclusive end drops it",
      start: "2024-01-01",
      end: "2024-01-01",
      expected: ["t/active/2024-01-01"],
    },
    {
      name: "the day before the end keeps it",
      start: "2023-12-31",
      end: "2023-12-31",
      expected: ["t/retired/2023-01-01"],
    },
    {
      name: "end inclusive on a start date",
      start: "2026-07-01",
      end: "2026-07-01",
      expected: ["t/active/2024-01-01", "t/upcoming-ended/2026-07-01", "t/upcoming/2026-07-01"],
    },
    {
      name: "open start: everything that began by the end",
      start: null,
      end: "2024-06-01",
      expected: ["t/active/2024-01-01", "t/retired/2023-01-01"],
    },
    {
      name: "open end: everything still in effect on or after the start (open versions always)",
      start: "2026-06-01",
      end: null,
      expected: ["t/active/2024-01-01", "t/upcoming-ended/2026-07-01", "t/upcoming/2026-07-01"],
    },
    {
      name: "both open: everything",
      start: null,
      end: null,
      expected: timeDb.policies.map((p) => p.policy_id),
    },
  ])("$name", ({ start, end, expected }) => {
    expect(allIds(timeDb, { policies: { effective_date: { start, end } } })).toEqual(expected);
  });

  it("ANDs the window with retired (rule Filter 7)", () => {
    expect(
      allIds(timeDb, {
        policies: { retired: true, effective_date: { start: "2026-05-31", end: "2026-05-31" } },
      }),
    ).toEqual(["t/ended-today/2025-01-01"]);
  });
});

const textDb = rulesDb(
  [
    policy("q/a/2020-01-01", { title: "Knee brace", summary: "Orthotic devices." }),
    policy("q/b/2020-01-01", { title: "Orthotics", summary: "Covers a knee brace." }),
    policy("q/c/2020-01-01", { title: "Sleep apnea", summary: "CPAP devices." }),
    policy("q/d/2020-01-01", {
      title: "Walkers",
      summary: '<span class="knee">Walking aids</span> see [here](https://x.org/knee)',
    }),
    policy("q/e/2020-01-01", {
      title: "Hearing aids",
      summary: null,
      codes: [code("HCPCS", "A0001"), code("HCPCS", "A0002")],
    }),
    policy("q/f/2020-01-01", {
      title: "Therapy",
      summary: null,
      codes: [code("CPT", "97110"), code("ICD10CM", "M25.561")],
    }),
    policy("q/g/2020-01-01", {
      title: "Strength exercise",
      summary: "Timed therapeutic exercise.",
      codes: [code("CPT", "97110")],
    }),
    policy("q/h/2020-01-01", {
      title: "Knee pain",
      summary: null,
      codes: [code("ICD10CM", "M25561", "REFERENCES")],
    }),
  ],
  [
    { code_system: "CPT", code: "97110", description: "Therapeutic exercise, strength" },
    { code_system: "ICD10CM", code: "m25.561", description: "Pain in right knee" },
    // Described only as the 21st code: never part of the ranking text.
    { code_system: "CPT", code: "99999", description: "Therapy" },
  ],
);

const scored = (request: FilterRequest) =>
  run(textDb, { limit: 100, ...request }).data.map((p) => [p.policy_id.slice(0, 3), p.score]);

describe("q ranks and never filters (rule Filter 6, Ordering)", () => {
  it("returns every version: matching ones by score, then the rest with null by id", () => {
    const out = scored({ policies: { q: "knee brace" } });
    const order = out.map(([id]) => id);
    // Both terms in the title first; the other two matching ones in score order.
    expect(order[0]).toBe("q/a");
    expect(new Set(order.slice(1, 3))).toEqual(new Set(["q/b", "q/h"]));
    expect(order.slice(3)).toEqual(["q/c", "q/d", "q/e", "q/f", "q/g"]);
    const scores = out.map(([, s]) => s);
    expect(scores.slice(0, 3).every((s) => typeof s === "number" && s > 0)).toBe(true);
    expect(scores.slice(3)).toEqual([null, null, null, null, null]);
    // Non-increasing.
    const numbers = scores.slice(0, 3) as number[];
    expect([...numbers].sort((x, y) => y - x)).toEqual(numbers);
  });

  it("does not match markup (tag attributes, link targets)", () => {
    const out = Object.fromEntries(scored({ policies: { q: "knee" } }));
    expect(out["q/d"]).toBeNull();
    expect(out["q/a"]).toBeGreaterThan(0);
  });

  it("ties are in policy id order", () => {
    const db = rulesDb([
      policy("z/2/2020-01-01", { title: "Same words" }),
      policy("z/1/2020-01-01", { title: "Same words" }),
      policy("y/9/2020-01-01", { title: "Same words" }),
    ]);
    const out = run(db, { policies: { q: "same" } });
    expect(ids(out)).toEqual(["y/9/2020-01-01", "z/1/2020-01-01", "z/2/2020-01-01"]);
    expect(new Set(out.data.map((p) => p.score)).size).toBe(1);
  });

  it("the other filters still filter while q ranks", () => {
    expect(
      allIds(textDb, {
        policies: { q: "knee", code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] } },
      }),
    ).toEqual(["q/f/2020-01-01", "q/g/2020-01-01"]);
  });
});

describe("ranking by the filtered codes' descriptions (rule Ordering)", () => {
  it("ranks against the descriptions when there is no q", () => {
    const out = scored({
      policies: { code_refs: { refs: [{ code_system: "ICD10CM", codes: ["M25.561"] }] } },
    });
    // "Pain in right knee": q/h matches "knee" and "pain" in the title; q/f matches nothing.
    expect(out).toEqual([
      ["q/h", expect.any(Number)],
      ["q/f", null],
    ]);
  });

  it("uses only the first 20 codes given", () => {
    const filler = Array.from({ length: 19 }, (_, i) => String(10000 + i));
    const refs = [
      { code_system: "CPT" as const, codes: ["97110", ...filler, "99999"] },
      { code_system: "ICD10CM" as const, codes: ["M25.561"] },
    ];
    const out = Object.fromEntries(scored({ policies: { code_refs: { refs } } }));
    // 97110 is first: "therapeutic exercise strength" ranks q/g; "Therapy" (the 21st code's
    // description) would rank q/f, and M25.561 (the 22nd code) would rank q/h.
    expect(out["q/g"]).toBeGreaterThan(0);
    expect(out["q/f"]).toBeNull();
    expect(out["q/h"]).toBeNull();
  });

  it("skips codes the catalogue does not describe", () => {
    const out = scored({
      policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["12345", "97110"] }] } },
    });
    expect(out).toEqual([
      ["q/g", expect.any(Number)],
      ["q/f", null],
    ]);
  });

  it("no known description at all: policy id order, every score null", () => {
    const unknown = scored({
      policies: { code_refs: { refs: [{ code_system: "HCPCS", codes: ["a0001", "A0002"] }] } },
    });
    expect(unknown).toEqual([["q/e", null]]);
  });
});

describe("relevance without q or codes (rule Ordering)", () => {
  it.each<{ name: string; request: FilterRequest }>([
    { name: "no body", request: {} },
    { name: "explicit relevance", request: { sort: "relevance" } },
    { name: "q blank", request: { policies: { q: "   " } } },
    { name: "q of punctuation only", request: { policies: { q: "?!" } } },
    { name: "q null", request: { policies: { q: null } } },
  ])("$name: policy id order, every score null", ({ request }) => {
    const out = run(textDb, { ...request, limit: 100 });
    expect(ids(out)).toEqual(textDb.policies.map((p) => p.policy_id));
    expect(out.data.every((p) => p.score === null)).toBe(true);
  });

  it("extractRankingTerms: q first, else code descriptions, else null", () => {
    expect(extractRankingTerms(textDb, { q: "Knee, Brace" })).toEqual(["knee", "brace"]);
    expect(
      extractRankingTerms(textDb, {
        code_refs: { refs: [{ code_system: "ICD10CM", codes: ["M25561"] }] },
      }),
    ).toEqual(["pain", "in", "right", "knee"]);
    expect(
      extractRankingTerms(textDb, {
        q: "!!",
        code_refs: { refs: [{ code_system: "ICD10CM", codes: ["M25561"] }] },
      }),
    ).toEqual(["pain", "in", "right", "knee"]);
    expect(extractRankingTerms(textDb, {})).toBeNull();
    expect(extractRankingTerms(textDb, null)).toBeNull();
  });
});

describe("non-relevance sorts (rule Ordering)", () => {
  const sortDb = rulesDb([
    policy("s/3/2020-01-01", { title: "beta", policy_number: "B-1" }),
    policy("s/1/2020-01-01", { title: "Beta", policy_number: "b-1" }),
    policy("s/2/2020-01-01", { title: "alpha", policy_number: "C-1" }),
    policy("S/9/2020-01-01", { title: "Gamma", policy_number: "a-1" }),
  ]);
  it.each<[Sort, string[]]>([
    ["policy_id_asc", ["S/9", "s/1", "s/2", "s/3"]],
    ["policy_id_desc", ["s/3", "s/2", "s/1", "S/9"]],
    ["title_asc", ["s/2", "s/1", "s/3", "S/9"]],
    ["title_desc", ["S/9", "s/3", "s/1", "s/2"]],
    ["policy_number_asc", ["S/9", "s/1", "s/3", "s/2"]],
    ["policy_number_desc", ["s/2", "s/3", "s/1", "S/9"]],
  ])("%s, scores null even with q", (sort, expected) => {
    const out = run(sortDb, { sort, policies: { q: "beta" } });
    expect(ids(out).map((id) => id.slice(0, 3))).toEqual(expected);
    expect(out.data.map((p) => p.score)).toEqual([null, null, null, null]);
  });
});

describe("pagination (rule Ordering: limit/offset cut the sorted list)", () => {
  const pageDb = rulesDb(
    Array.from({ length: 23 }, (_, i) =>
      policy(`p/${String(i).padStart(2, "0")}/2020-01-01`, {
        title: i % 3 === 0 ? "Knee brace" : i % 3 === 1 ? "Knee" : "Other",
      }),
    ),
  );
  it.each([
    { limit: undefined, offset: undefined, count: 20, has_more: true, echo: [20, 0] },
    { limit: 10, offset: 20, count: 3, has_more: false, echo: [10, 20] },
    { limit: 3, offset: 20, count: 3, has_more: false, echo: [3, 20] },
    { limit: 3, offset: 19, count: 3, has_more: true, echo: [3, 19] },
    { limit: 100, offset: 0, count: 23, has_more: false, echo: [100, 0] },
    { limit: 5, offset: 40, count: 0, has_more: false, echo: [5, 40] },
  ])("limit=$limit offset=$offset", ({ limit, offset, count, has_more, echo }) => {
    const out = run(pageDb, { limit, offset });
    expect(out.data).toHaveLength(count);
    expect(out.has_more).toBe(has_more);
    expect([out.limit, out.offset]).toEqual(echo);
  });

  it("pages of any size concatenate to the full sorted list, has_more true until the last", () => {
    const sorts: Sort[] = ["relevance", "title_desc", "policy_number_asc", "policy_id_desc"];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(...sorts),
        fc.constantFrom<string | undefined>(undefined, "knee", "brace knee", "zzz"),
        (limit, sort, q) => {
          const base: FilterRequest = { sort, policies: q === undefined ? null : { q } };
          const full = run(pageDb, { ...base, limit: 100 }).data;
          const seen = [];
          for (let offset = 0; ; offset += limit) {
            const page = run(pageDb, { ...base, limit, offset });
            seen.push(...page.data);
            expect(page.has_more).toBe(offset + limit < full.length);
            if (!page.has_more) break;
          }
          expect(seen).toEqual(full);
        },
      ),
    );
  });
});

describe("include_* flags (rule Shapes: null unless asked)", () => {
  const db = rulesDb([
    policy("i/a/2020-01-01", {
      applicability: [link("AET_commercial_CA")],
      codes: [code("CPT", "97110")],
    }),
    policy("i/b/2020-01-01"),
  ]);
  it.each<{ request: FilterRequest; applicability: unknown[]; code_groups: unknown[] }>([
    { request: {}, applicability: [null, null], code_groups: [null, null] },
    {
      request: { include_applicability: false, include_code_groups: false },
      applicability: [null, null],
      code_groups: [null, null],
    },
    {
      request: { include_applicability: true },
      applicability: [
        [{ payer_ids: ["AET"], payer_names: ["Aetna"], lobs: ["commercial"], state: "CA" }],
        [],
      ],
      code_groups: [null, null],
    },
    {
      request: { include_code_groups: true },
      applicability: [null, null],
      code_groups: [
        [{ code_system: "CPT", relationship: "COVERS", category: null, codes: ["97110"] }],
        [],
      ],
    },
  ])("$request", ({ request, applicability, code_groups }) => {
    const out = run(db, { ...request, sort: "policy_id_asc" });
    expect(out.data.map((p) => p.applicability)).toEqual(applicability);
    expect(out.data.map((p) => p.code_groups)).toEqual(code_groups);
  });

  it("applicability follows the same links as the scope filters (window / retired / current)", () => {
    const linksDb = rulesDb([
      policy("w/x/2020-01-01", {
        applicability: [
          link("AET_commercial_CA", "2020-01-01", "2022-01-01"),
          link("BCB_commercial_CA", "2022-01-01", null),
          link("UHC_commercial_TX", "2030-01-01", null),
        ],
      }),
    ]);
    const payersOf = (policies: PolicyFilter) =>
      run(linksDb, { policies, include_applicability: true }).data[0]?.applicability?.map((a) =>
        a.payer_ids.join(","),
      );
    expect(payersOf({})).toEqual(["BCB", "UHC"]);
    expect(payersOf({ retired: true })).toBeUndefined();
    expect(payersOf({ effective_date: { start: "2021-01-01", end: "2021-01-01" } })).toEqual([
      "AET",
    ]);
    // Both ends open: every link, and AET and BCB share the commercial CA item.
    expect(payersOf({ effective_date: { start: null, end: null } })).toEqual(["AET,BCB", "UHC"]);
  });

  it("lists every field of a list result in the spec's order", () => {
    const item = run(db, { include_code_groups: true }).data[0];
    expect(Object.keys(item ?? {})).toEqual([
      "policy_id",
      "policy_number",
      "title",
      "effective_from_date",
      "effective_to_date",
      "file_url",
      "file_type",
      "listing_url",
      "summary",
      "score",
      "applicability",
      "code_groups",
    ]);
  });
});

describe("POST /v1/policies/filter through the router", () => {
  const db = rulesDb([policy("r/a/2020-01-01"), policy("r/b/2020-01-01")]);
  const ctx = { db, today: "2026-06-01", linkFor: () => "file:///x" };
  const post = (body: unknown) =>
    handleApiRequest(ctx, { method: "POST", path: "/v1/policies/filter", query: [], body });

  it.each<[string, unknown, number, unknown]>([
    ["no body: every version", undefined, 200, { limit: 20, offset: 0, has_more: false }],
    ["a page", { limit: 1 }, 200, { limit: 1, offset: 0, has_more: true }],
    [
      "out-of-range limit: 422 with the spec's body",
      { limit: 0, policies: { x: 1 } },
      422,
      {
        detail: [
          expect.objectContaining({ loc: ["body", "policies", "x"], type: "extra_forbidden" }),
          expect.objectContaining({
            loc: ["body", "limit"],
            msg: "Input should be greater than or equal to 1",
            type: "greater_than_equal",
            input: 0,
          }),
        ],
      },
    ],
  ])("%s", (_name, body, status, expected) => {
    const res = post(body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(expected as object);
  });
});
