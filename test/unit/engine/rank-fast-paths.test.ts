import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PolicyRecord } from "../../../src/engine/db.js";
import {
  compareByRelevance,
  rankInIdOrder,
  rankScored,
  scoreVersions,
  TITLE_WEIGHT,
} from "../../../src/engine/rank.js";
import { stripMarkup, tokenize } from "../../../src/engine/text.js";
import { policy, rulesDb } from "./rules-fixture.js";

// The ranker's fast paths (one pass over flat arrays, typed-array sort) checked against the
// rule written the plain way: per field BM25, weighted sum, rounded to millionths.
function referenceScores(versions: readonly PolicyRecord[], terms: string[]): (number | null)[] {
  const count = (words: string[]) => {
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { tf, length: words.length };
  };
  const docs = versions.map((v) => ({
    title: count(tokenize(stripMarkup(v.title))),
    summary: count(tokenize(stripMarkup(v.summary ?? ""))),
  }));
  const unique = [...new Set(terms)];
  if (unique.length === 0 || docs.length === 0) return docs.map(() => null);
  const n = docs.length;
  const avgTitle = docs.reduce((s, d) => s + d.title.length, 0) / n || 1;
  const avgSummary = docs.reduce((s, d) => s + d.summary.length, 0) / n || 1;
  const part = (idf: number, f: number, len: number, avg: number) =>
    (idf * (f * 2.2)) / (f + 1.2 * (1 - 0.75 + (0.75 * len) / avg));
  return docs.map((d) => {
    let score = 0;
    for (const t of unique) {
      const df = docs.filter((x) => x.title.tf.has(t) || x.summary.tf.has(t)).length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const inTitle = d.title.tf.get(t);
      const inSummary = d.summary.tf.get(t);
      if (inTitle) score += TITLE_WEIGHT * part(idf, inTitle, d.title.length, avgTitle);
      if (inSummary) score += part(idf, inSummary, d.summary.length, avgSummary);
    }
    return score > 0 ? Math.max(Math.round(score * 1e6) / 1e6, 1e-6) : null;
  });
}

const WORDS = ["knee", "brace", "Knee", "sleep", "apnea", "<b>knee</b>", "cpap", "the", "a"];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" "));

describe("scoreVersions gives exactly the reference BM25", () => {
  it("on random titles, summaries and queries", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: text, summary: fc.option(text, { nil: null }) }), {
          minLength: 1,
          maxLength: 10,
        }),
        fc.array(fc.constantFrom("knee", "brace", "sleep", "cpap", "missing"), { maxLength: 4 }),
        (docs, terms) => {
          const db = rulesDb(
            docs.map((d, i) => policy(`r/d${String(i).padStart(2, "0")}/2020-01-01`, d)),
          );
          expect(scoreVersions(db.policies, terms)).toEqual(referenceScores(db.policies, terms));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("rankInIdOrder orders as compareByRelevance does", () => {
  const db = rulesDb(
    Array.from({ length: 12 }, (_, i) => policy(`r/p${String(i).padStart(2, "0")}/2020-01-01`)),
  );
  const expected = (scores: (number | null)[]) =>
    db.policies
      .map((version, i) => ({ version, score: scores[i] ?? null }))
      .sort(compareByRelevance)
      .map((r) => [r.version.policy_id, r.score]);
  const actual = (scores: (number | null)[]) =>
    rankInIdOrder(db.policies, scores).map((r) => [r.version.policy_id, r.score]);

  it.each<[string, fc.Arbitrary<number | null>]>([
    // Whole millionths, as scoreVersions gives them (many ties): the typed-array path.
    [
      "rounded scores",
      fc.option(
        fc.integer({ min: 1, max: 5 }).map((m) => m / 1e6),
        { nil: null },
      ),
    ],
    ["large rounded scores", fc.option(fc.integer({ min: 1, max: 2e9 }).map((m) => m / 1e6))],
    // Anything else falls back to a comparator sort.
    ["unrounded scores", fc.option(fc.double({ min: 1e-9, max: 10, noNaN: true }), { nil: null })],
  ])("%s", (_name, score) => {
    fc.assert(
      fc.property(fc.array(score, { minLength: 12, maxLength: 12 }), (scores) => {
        expect(actual(scores)).toEqual(expected(scores));
      }),
      { numRuns: 300 },
    );
  });
});

describe("rankScored's pages equal the full order", () => {
  // A page far shorter than the scored list takes the top-k selection, not a full sort.
  const n = 200;
  const db = rulesDb(
    Array.from({ length: n }, (_, i) => policy(`k/p${String(i).padStart(3, "0")}/2020-01-01`)),
  );
  const positions = db.policies.map((_, i) => i);
  it("for any page, whole-millionth scores with many ties", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 1, max: 6 }).map((m) => m / 1e6),
          { minLength: n, maxLength: n },
        ),
        fc.integer({ min: 0, max: n }),
        fc.integer({ min: 1, max: 30 }),
        (scores, from, limit) => {
          const full = rankInIdOrder(db.policies, scores).map((r) => [
            r.version.policy_id,
            r.score,
          ]);
          const ranked = rankScored(db.policies, positions, {
            positions: Int32Array.from(positions),
            scores: Float64Array.from(scores),
          });
          const page = ranked.slice(from, from + limit).map((r) => [r.version.policy_id, r.score]);
          expect(page).toEqual(full.slice(from, from + limit));
          // A later, longer page from the same list still agrees.
          expect(ranked.slice(0, from + limit).map((r) => r.version.policy_id)).toEqual(
            full.slice(0, from + limit).map(([id]) => id),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
