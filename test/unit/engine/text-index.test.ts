import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FilterRequest } from "../../../src/contract/index.js";
import type { PolicyRecord } from "../../../src/engine/db.js";
import {
  compareByRelevance,
  findPostings,
  rankInIdOrder,
  rankScored,
  scoreIndexed,
  scoreVersions,
} from "../../../src/engine/rank.js";
import { buildTextIndex, getTextIndex, hasTextIndex } from "../../../src/engine/text-index.js";
import { tokenize } from "../../../src/engine/text.js";
import { code, link, policy, rulesDb, run } from "./rules-fixture.js";

const WORDS = ["knee", "brace", "Knee", "sleep", "apnea", "<b>knee</b>", "cpap", "the", "a"];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" "));
const docs = fc.array(fc.record({ title: text, summary: fc.option(text, { nil: null }) }), {
  minLength: 1,
  maxLength: 12,
});
const terms = fc.array(fc.constantFrom("knee", "brace", "sleep", "cpap", "missing"), {
  maxLength: 4,
});
const dbOf = (list: { title: string; summary: string | null }[]) =>
  rulesDb(list.map((d, i) => policy(`r/d${String(i).padStart(2, "0")}/2020-01-01`, d)));
// A subset of 0..n-1, ascending: the versions some filter let through.
const subsetOf = (n: number, keep: boolean[]) =>
  Array.from({ length: n }, (_, i) => i).filter((i) => keep[i % keep.length] !== false);

/** scoreIndexed's sparse answer spread over the positions, as scoreVersions gives it. */
function spread(positions: readonly number[], scored: ReturnType<typeof scoreIndexed>) {
  const byPosition = new Map(Array.from(scored.positions, (p, j) => [p, scored.scores[j]]));
  return positions.map((p) => byPosition.get(p) ?? null);
}

describe("buildTextIndex", () => {
  it("holds each term's versions in order with its count per field, markup left out", () => {
    const db = rulesDb([
      policy("r/a/2020-01-01", { title: "Knee brace", summary: "A knee <b>KNEE</b> sleeve." }),
      policy("r/b/2020-01-01", { title: "Sleep", summary: '<a href="knee">link</a>' }),
      policy("r/c/2020-01-01", { title: "Knee", summary: null }),
    ]);
    const index = buildTextIndex(db.policies);
    const postings = (term: string) => {
      const id = index.terms.get(term) as number;
      return Array.from(
        { length: (index.start[id + 1] as number) - (index.start[id] as number) },
        (_, k) => {
          const p = (index.start[id] as number) + k;
          return [index.docs[p], index.titleCounts[p], index.summaryCounts[p]];
        },
      );
    };
    expect(postings("knee")).toEqual([
      [0, 1, 2],
      [2, 1, 0],
    ]);
    expect(index.terms.has("href")).toBe(false);
    expect(Array.from(index.titleLengths)).toEqual([2, 1, 1]);
    expect(Array.from(index.summaryLengths)).toEqual([4, 1, 0]);
    expect([index.titleTotal, index.summaryTotal]).toEqual([4, 5]);
  });
});

describe("scoreIndexed gives exactly scoreVersions's scores", () => {
  it("over every version and over filtered subsets, query after query on one index", () => {
    fc.assert(
      fc.property(
        docs,
        fc.array(fc.tuple(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), terms), {
          minLength: 1,
          maxLength: 5,
        }),
        (list, queries) => {
          const db = dbOf(list);
          const index = buildTextIndex(db.policies);
          for (const [keep, query] of queries) {
            for (const positions of [db.policies.map((_, i) => i), subsetOf(list.length, keep)]) {
              const versions = positions.map((p) => db.policies[p] as PolicyRecord);
              const scored = scoreIndexed(index, positions, query);
              expect(spread(positions, scored)).toEqual(scoreVersions(versions, query));
              // Only scored versions are listed, in position order.
              expect(Array.from(scored.scores).every((s) => s > 0)).toBe(true);
              expect(Array.from(scored.positions)).toEqual(
                [...scored.positions].sort((a, b) => a - b),
              );
            }
          }
          // The shared scratch is left clean.
          expect(index.sums.every((s) => s === 0)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("scoreIndexed with few members against long postings (looked up one by one)", () => {
  it("gives exactly scoreVersions's scores", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: text, summary: fc.option(text, { nil: null }) }), {
          minLength: 100,
          maxLength: 240,
        }),
        fc.uniqueArray(fc.nat(239), { minLength: 1, maxLength: 3 }),
        terms,
        (list, picked, query) => {
          const db = dbOf(list);
          const index = buildTextIndex(db.policies);
          const positions = picked.filter((p) => p < list.length).sort((a, b) => a - b);
          const versions = positions.map((p) => db.policies[p] as PolicyRecord);
          const scored = scoreIndexed(index, positions, query);
          expect(spread(positions, scored)).toEqual(scoreVersions(versions, query));
          expect(index.sums.every((s) => s === 0)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("findPostings finds exactly the members' postings, in order", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(500), { maxLength: 80 }),
        fc.uniqueArray(fc.nat(500), { maxLength: 20 }),
        fc.nat(5),
        (docList, memberList, pad) => {
          // The term's postings sit between other terms' (`pad` on each side).
          const docs = [
            ...Array(pad).fill(0),
            ...docList.sort((a, b) => a - b),
            ...Array(pad).fill(9),
          ];
          const members = memberList.sort((a, b) => a - b);
          const want = docs
            .map((d, i) => [d, i] as const)
            .filter(([d, i]) => i >= pad && i < pad + docList.length && members.includes(d))
            .map(([, i]) => i);
          const out = new Int32Array(members.length);
          expect(Array.from(findPostings(docs, pad, pad + docList.length, members, out))).toEqual(
            want,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("rankScored orders as rankInIdOrder does, page by page", () => {
  it("on every cut of the list (scored head, unscored tail, both, past the end)", () => {
    fc.assert(
      fc.property(
        docs,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        terms,
        fc.nat(14),
        fc.integer({ min: 1, max: 14 }),
        (list, keep, query, offset, limit) => {
          const db = dbOf(list);
          const positions = subsetOf(list.length, keep);
          const versions = positions.map((p) => db.policies[p] as PolicyRecord);
          const expected = rankInIdOrder(versions, scoreVersions(versions, query));
          const ranked = rankScored(
            db.policies,
            positions,
            scoreIndexed(buildTextIndex(db.policies), positions, query),
          );
          expect(ranked.length).toBe(expected.length);
          expect(ranked.slice(offset, offset + limit)).toEqual(
            expected.slice(offset, offset + limit),
          );
          // A later, longer cut of the same list (the head sorted further than the first cut).
          expect(ranked.slice(0, expected.length)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("orders any scores (unrounded ones by comparison) as compareByRelevance does", () => {
    const db = dbOf(Array.from({ length: 12 }, () => ({ title: "x", summary: null })));
    const score = fc.oneof(
      fc.integer({ min: 1, max: 4 }).map((m) => m / 1e6),
      fc.double({ min: 1e-9, max: 10, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.option(score, { nil: null }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.nat(12),
        (scores, keep, offset) => {
          const positions = subsetOf(12, keep);
          const scoredAt = positions.filter((p) => scores[p] !== null);
          const ranked = rankScored(db.policies, positions, {
            positions: Int32Array.from(scoredAt),
            scores: Float64Array.from(scoredAt, (p) => scores[p] as number),
          });
          const expected = positions
            .map((p) => ({ version: db.policies[p] as PolicyRecord, score: scores[p] ?? null }))
            .sort(compareByRelevance);
          expect(ranked.slice(offset, offset + 3)).toEqual(expected.slice(offset, offset + 3));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a short page among many scored versions", () => {
    const db = rulesDb(
      Array.from({ length: 60 }, (_, i) =>
        policy(`r/m${String(i).padStart(2, "0")}/2020-01-01`, {
          title: i % 7 === 0 ? "Sleep" : `Knee ${"brace ".repeat(i % 5)}`,
          summary: "knee ".repeat(i % 3),
        }),
      ),
    );
    const positions = db.policies.map((_, i) => i);
    const query = tokenize("knee brace");
    const expected = rankInIdOrder(db.policies, scoreVersions(db.policies, query));
    const fresh = () =>
      rankScored(db.policies, positions, scoreIndexed(getTextIndex(db), positions, query));
    for (const [offset, limit] of [
      [0, 5],
      [3, 7],
      [10, 20],
      [50, 20],
    ] as const)
      expect(fresh().slice(offset, offset + limit)).toEqual(expected.slice(offset, offset + limit));
  });
});

describe("filterPolicies ranks q the same with or without the text index", () => {
  const policies = Array.from({ length: 40 }, (_, i) =>
    policy(`r/f${String(i).padStart(2, "0")}/20${10 + (i % 10)}-01-01`, {
      title: ["Knee brace", "Sleep apnea", "Knee", "CPAP supplies", "Brace"][i % 5],
      summary: ["Covers a knee brace.", null, "knee knee sleep", "<i>brace</i>"][i % 4],
      effective_to_date: i % 6 === 0 ? "2021-01-01" : null,
      applicability: [link(i % 3 === 0 ? "AET_commercial_CA" : "BCB_medicaid_TX")],
      codes: i % 13 === 0 ? [code("CPT", "97110")] : [],
    }),
  );
  const requests: FilterRequest[] = [
    { policies: { q: "knee brace" } },
    { policies: { q: "knee", states: ["CA"] } },
    { policies: { q: "brace sleep", retired: true }, limit: 3, offset: 2 },
    { policies: { q: "knee", effective_date: { start: "2015-01-01", end: "2016-12-31" } } },
    { policies: { q: "cpap missing" }, limit: 5, offset: 30 },
    { policies: { q: "knee" }, sort: "title_asc" },
    // Four versions of forty: ranked per version while no index exists.
    {
      policies: {
        q: "knee brace",
        code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
      },
    },
  ];

  it("is not built at load nor by queries without q", () => {
    const db = rulesDb(policies);
    run(db, { policies: { states: ["CA"] } });
    run(db, { policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] } } });
    expect(hasTextIndex(db)).toBe(false);
    // A q over few versions ranks them one by one, and leaves the index unbuilt.
    run(db, {
      policies: { q: "knee", code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] } },
    });
    expect(hasTextIndex(db)).toBe(false);
    run(db, { policies: { q: "knee" } });
    expect(hasTextIndex(db)).toBe(true);
  });

  it.each(requests)("%j", (request) => {
    const plain = rulesDb(policies);
    const indexed = rulesDb(policies);
    getTextIndex(indexed);
    // `plain` ranks small filtered sets per version, until a broad q builds its index.
    expect(run(indexed, request)).toEqual(run(plain, request));
    expect(run(indexed, { policies: { q: "knee" } })).toEqual(
      run(plain, { policies: { q: "knee" } }),
    );
    expect(run(indexed, request)).toEqual(run(plain, request));
  });
});
