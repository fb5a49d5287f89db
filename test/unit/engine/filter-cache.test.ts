import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FilterRequest } from "../../../src/contract/index.js";
import type { Db, PolicyRecord } from "../../../src/engine/db.js";
import { filterPolicies } from "../../../src/engine/filter.js";
import { FilterCache, MAX_KEY_LENGTH } from "../../../src/engine/filter-cache.js";
import type { RankedList } from "../../../src/engine/rank.js";
import { handleApiRequest } from "../../../src/engine/router.js";
import { code, LOBS, link, policy, rulesDb } from "./rules-fixture.js";

// A server keeps a filter's ranked list (FilterCache): the next page of the same filter, or the
// same filter from another client, reads the page's versions only. Held without clocks: the
// db's version list counts its element reads.

const VERSIONS = 60;
const base = rulesDb(
  Array.from({ length: VERSIONS }, (_, v) =>
    policy(`rc/p${String(v).padStart(3, "0")}/20${10 + (v % 15)}-01-01`, {
      title: `Knee ${v % 2 ? "therapy" : "brace"} ${v % 3 ? "sleep" : "apnea"}`,
      summary: v % 4 ? "Physical therapy for the knee." : null,
      effective_to_date: v % 5 === 0 ? "2026-01-01" : null,
      codes: [code("ICD10CM", `M25.${v % 7}`), code("CPT", String(97110 + (v % 5)))],
      applicability: [
        link(LOBS[v % LOBS.length]!.lob_id, "2019-01-01", v % 6 ? null : "2026-03-01"),
      ],
    }),
  ),
);

/** `base` whose version list counts reads of its elements in `reads.n`. */
function countedDb(reads: { n: number }): Db {
  const policies = new Proxy(base.policies, {
    get(target, prop, receiver) {
      if (typeof prop === "string" && /^\d+$/.test(prop)) reads.n++;
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return { ...base, policies };
}

const cpt = (...codes: string[]) => ({ code_system: "CPT" as const, codes });
const list = (length: number): RankedList => ({ length, slice: () => [] });

describe("FilterCache", () => {
  it("answers the next page of a filter from the kept list, reading only that page", () => {
    const reads = { n: 0 };
    const db = countedDb(reads);
    const cache = new FilterCache();
    const filter = { policies: { states: ["CA", "TX"], retired: false } } satisfies FilterRequest;
    const first = filterPolicies(db, { ...filter, limit: 5 }, "2026-06-01", undefined, cache);
    expect(first.data).toHaveLength(5);
    // The first request tests every version (this store has no index to narrow by).
    expect(reads.n).toBeGreaterThanOrEqual(VERSIONS);
    reads.n = 0;
    const next = { ...filter, limit: 5, offset: 5, include_applicability: true };
    const second = filterPolicies(db, next, "2026-06-01", undefined, cache);
    expect(reads.n).toBeLessThanOrEqual(5);
    expect(second).toEqual(filterPolicies(base, next, "2026-06-01"));
  });

  it.each([
    ["a field sort", { policies: { retired: false }, sort: "title_asc" }],
    [
      "ranking by code descriptions",
      { policies: { code_refs: { refs: [cpt("97110", "97112")] } } },
    ],
    ["ranking by `q`", { policies: { q: "knee therapy" } }],
  ] as Array<[string, FilterRequest]>)(
    "%s: a kept list holds positions, not records (the next page reads its own from the db)",
    (_name, filter) => {
      const reads = { n: 0 };
      const db = countedDb(reads);
      const cache = new FilterCache();
      filterPolicies(db, { ...filter, limit: 5 }, "2026-06-01", undefined, cache);
      reads.n = 0;
      const next = { ...filter, limit: 5, offset: 5 };
      const page = filterPolicies(db, next, "2026-06-01", undefined, cache);
      expect(page.data).toHaveLength(5);
      expect(reads.n).toBe(5);
      expect(page).toEqual(filterPolicies(base, next, "2026-06-01"));
    },
  );

  it("keeps the code groups of the versions it shaped: a page again reads no catalogue entry", () => {
    const gets = { n: 0 };
    const catalogue = {
      get: (key: string) => (gets.n++, base.catalogue.get(key)),
      has: (key: string) => base.catalogue.has(key),
      size: base.catalogue.size,
      // Every key asked counts: a page's descriptions are read in one call.
      getMany: (keys: readonly string[]) => {
        gets.n += keys.length;
        return base.catalogue.getMany(keys);
      },
    };
    const db: Db = { ...base, catalogue };
    const cache = new FilterCache();
    const request: FilterRequest = { policies: { q: "knee" }, include_code_groups: true, limit: 4 };
    const first = filterPolicies(db, request, "2026-06-01", undefined, cache);
    expect(gets.n).toBeGreaterThanOrEqual(4 * 2);
    gets.n = 0;
    const again = filterPolicies(
      db,
      { ...request, include_applicability: true },
      "2026-06-01",
      undefined,
      cache,
    );
    expect(gets.n).toBe(0);
    expect(again).toEqual(
      filterPolicies(base, { ...request, include_applicability: true }, "2026-06-01"),
    );
    expect(first).toEqual(filterPolicies(base, request, "2026-06-01"));
  });

  it("a page whose kept groups a new version pushes out still gets every description", () => {
    // Kept: the groups of the page's 3rd and 4th versions. The page of four shapes the 1st and
    // 2nd, whose keeping (at most two) pushes the 3rd and 4th out before they are reached.
    const described = rulesDb(
      Array.from({ length: 6 }, (_, v) =>
        policy(`rd/p${v}/2020-01-01`, {
          title: `Knee ${v}`,
          codes: [code("CPT", String(97110 + v)), code("ICD10CM", `M25.${v}`)],
          applicability: [link(LOBS[0]!.lob_id)],
        }),
      ),
      Array.from({ length: 6 }, (_, v) => [
        { code_system: "CPT", code: String(97110 + v), description: `therapy ${v}` },
        { code_system: "ICD10CM", code: `M25.${v}`, description: `joint ${v}` },
      ]).flat(),
    );
    // A catalogue that answers only the keys asked (as a store on disk may).
    const { catalogue } = described;
    described.catalogue = {
      get: (key) => catalogue.get(key),
      has: (key) => catalogue.has(key),
      size: catalogue.size,
      getMany: (keys) =>
        new Map(keys.flatMap((k) => (catalogue.has(k) ? [[k, catalogue.get(k)!]] : []))),
    };
    const cache = new FilterCache(64, 200_000, 2);
    const request: FilterRequest = { policies: { q: "knee" }, include_code_groups: true };
    const at = "2026-06-01";
    filterPolicies(described, { ...request, limit: 2, offset: 2 }, at, undefined, cache);
    const page = filterPolicies(described, { ...request, limit: 4 }, at, undefined, cache);
    expect(page).toEqual(filterPolicies(described, { ...request, limit: 4 }, at));
    for (const item of page.data)
      for (const group of item.code_groups!) expect(group).toHaveProperty("descriptions");
  });

  it("keeps the code groups of at most maxGroups versions, least recently used out first", () => {
    const cache = new FilterCache(64, 200_000, 2);
    const [a, b, c] = base.policies as [PolicyRecord, PolicyRecord, PolicyRecord];
    const built: string[] = [];
    const build = (v: PolicyRecord) => (built.push(v.policy_id), []);
    for (const v of [a, b, a, c, a, b])
      if (!cache.getCodeGroups(v)) cache.keepCodeGroups(v, build(v));
    // a, b built; a kept; c built (b out); a kept; b built again (c out).
    expect(built).toEqual([a.policy_id, b.policy_id, c.policy_id, b.policy_id]);
  });

  it("keys on the filter, the sort and today, not on the page or the includes", () => {
    const cache = new FilterCache();
    const today = "2026-06-01";
    const a: FilterRequest = { policies: { q: "knee" }, limit: 3 };
    cache.set(cache.keyOf(a, today), list(1));
    const same = { ...a, limit: 50, offset: 2, include_code_groups: true };
    expect(cache.get(cache.keyOf(same, today))).toBeDefined();
    expect(cache.get(cache.keyOf({ ...a, sort: "title_asc" }, today))).toBeUndefined();
    expect(cache.get(cache.keyOf(a, "2026-06-02"))).toBeUndefined();
    expect(cache.get(cache.keyOf({ policies: { q: "knees" } }, today))).toBeUndefined();
  });

  it("keeps at most maxLists lists and maxEntries entries, least recently used out first", () => {
    const cache = new FilterCache(3, 100);
    for (const k of ["a", "b", "c"]) cache.set(k, list(10));
    cache.get("a");
    cache.set("d", list(10));
    expect(cache.get("b")).toBeUndefined();
    expect(cache.size).toEqual({ lists: 3, entries: 30 });
    // c, a, d, then e: over 100 entries until c and a are out.
    cache.set("e", list(85));
    expect(cache.size).toEqual({ lists: 2, entries: 95 });
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("d")).toBeDefined();
    // A key longer than MAX_KEY_LENGTH (a filter of very many codes) is not kept.
    cache.set("g".repeat(MAX_KEY_LENGTH + 1), list(1));
    expect(cache.size).toEqual({ lists: 2, entries: 95 });
    // A list longer than the bound is not kept at all.
    cache.set("f", list(101));
    expect(cache.get("f")).toBeUndefined();
    expect(cache.size).toEqual({ lists: 2, entries: 95 });
  });

  it("answers every body as the engine without it, in any order of requests (property)", () => {
    const policies = fc.record(
      {
        q: fc.option(fc.constantFrom("knee", "sleep apnea", "therapy brace", "")),
        code_refs: fc.option(
          fc.record({
            match: fc.constantFrom("any", "all"),
            refs: fc.array(
              fc.record({
                code_system: fc.constantFrom("ICD10CM", "CPT"),
                codes: fc.array(fc.constantFrom("M25.1", "M25.3", "97111", "97114"), {
                  minLength: 1,
                }),
              }),
              { minLength: 1, maxLength: 2 },
            ),
          }),
        ),
        states: fc.option(fc.array(fc.constantFrom("CA", "NY", "TX"))),
        lobs: fc.option(fc.array(fc.constantFrom("commercial", "medicaid"))),
        retired: fc.option(fc.boolean()),
        effective_date: fc.option(
          fc.record({ start: fc.constantFrom("2015-01-01", "2026-02-01"), end: fc.constant(null) }),
        ),
      },
      { requiredKeys: [] },
    );
    const body = fc.record(
      {
        policies: fc.option(policies),
        sort: fc.constantFrom("relevance", "policy_id_desc", "title_asc"),
        limit: fc.integer({ min: 1, max: 30 }),
        offset: fc.integer({ min: 0, max: 40 }),
        include_applicability: fc.boolean(),
        include_code_groups: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    const asked = fc.array(fc.tuple(body, fc.constantFrom("2026-01-15", "2026-06-01")), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(asked, (requests) => {
        const cache = new FilterCache(4, 200);
        // Each body twice, so the second is answered from the kept list when still there.
        for (const [b, today] of [...requests, ...requests]) {
          const req = { method: "POST" as const, path: "/v1/policies/filter", query: [], body: b };
          const plain = handleApiRequest({ db: base, today, linkFor: () => "" }, req);
          const cached = handleApiRequest(
            { db: base, today, linkFor: () => "", filterCache: cache },
            req,
          );
          expect(JSON.stringify(cached)).toBe(JSON.stringify(plain));
        }
      }),
      { numRuns: 200 },
    );
  });
});
