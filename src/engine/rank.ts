import type { Sort } from "../contract/index.js";
import { compareCaseInsensitive, compareCodePoints } from "./compare.js";
import type { PolicyRecord } from "./db.js";
import { stripMarkup, tokenize } from "./text.js";

const K1 = 1.2;
const B = 0.75;
/** Title terms count this many times a summary term: a title match says more. */
export const TITLE_WEIGHT = 2;

interface DocTerms {
  tf: Map<string, number>;
  length: number;
}

const docCache = new WeakMap<PolicyRecord, DocTerms>();

function docTerms(v: PolicyRecord): DocTerms {
  let terms = docCache.get(v);
  if (terms) return terms;
  const tf = new Map<string, number>();
  const title = tokenize(stripMarkup(v.title));
  const summary = tokenize(stripMarkup(v.summary ?? ""));
  for (const t of title) tf.set(t, (tf.get(t) ?? 0) + TITLE_WEIGHT);
  for (const t of summary) tf.set(t, (tf.get(t) ?? 0) + 1);
  terms = { tf, length: title.length * TITLE_WEIGHT + summary.length };
  docCache.set(v, terms);
  return terms;
}

/**
 * BM25 of `terms` against title and summary, over the versions that passed the filters
 * (they are the collection for document frequency); null where no term occurs.
 */
export function scoreVersions(
  versions: readonly PolicyRecord[],
  terms: readonly string[],
): (number | null)[] {
  const unique = [...new Set(terms)];
  const docs = versions.map(docTerms);
  if (unique.length === 0 || docs.length === 0) return docs.map(() => null);
  const n = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / n || 1;
  const idf = new Map(
    unique.map((t) => {
      const df = docs.reduce((s, d) => s + (d.tf.has(t) ? 1 : 0), 0);
      return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
  return docs.map((d) => {
    let score = 0;
    for (const t of unique) {
      const f = d.tf.get(t);
      if (!f) continue;
      score += (idf.get(t) ?? 0) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avgdl)));
    }
    // Rounded so the same score prints the same through every transport and ties are real ties.
    return score > 0 ? Math.max(Math.round(score * 1e6) / 1e6, 1e-6) : null;
  });
}

export interface Ranked {
  version: PolicyRecord;
  score: number | null;
}

/** Rule Ordering: score first (nulls last), ties and the unscored tail by policy id. */
export function compareByRelevance(a: Ranked, b: Ranked): number {
  if (a.score !== null && b.score !== null && a.score !== b.score) return b.score - a.score;
  if (a.score === null && b.score !== null) return 1;
  if (a.score !== null && b.score === null) return -1;
  return compareCodePoints(a.version.policy_id, b.version.policy_id);
}

const ASCENDING: Record<
  Exclude<Sort, "relevance">,
  (a: PolicyRecord, b: PolicyRecord) => number
> = {
  policy_id_asc: (a, b) => compareCodePoints(a.policy_id, b.policy_id),
  policy_id_desc: (a, b) => compareCodePoints(b.policy_id, a.policy_id),
  title_asc: (a, b) =>
    compareCaseInsensitive(a.title, b.title) || compareCodePoints(a.policy_id, b.policy_id),
  title_desc: (a, b) =>
    compareCaseInsensitive(b.title, a.title) || compareCodePoints(b.policy_id, a.policy_id),
  policy_number_asc: (a, b) =>
    compareCaseInsensitive(a.policy_number, b.policy_number) ||
    compareCodePoints(a.policy_id, b.policy_id),
  policy_number_desc: (a, b) =>
    compareCaseInsensitive(b.policy_number, a.policy_number) ||
    compareCodePoints(b.policy_id, a.policy_id),
};

/** Rule Ordering: the comparator of a non-relevance sort; `_desc` is the exact reverse of `_asc`. */
export function comparatorFor(
  sort: Exclude<Sort, "relevance">,
): (a: PolicyRecord, b: PolicyRecord) => number {
  return ASCENDING[sort];
}
