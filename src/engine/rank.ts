import type { Sort } from "../contract/index.js";
import { compareCaseInsensitive, compareCodePoints } from "./compare.js";
import type { PolicyRecord } from "./db.js";
import { stripMarkup, tokenize } from "./text.js";

const K1 = 1.2;
const B = 0.75;
/**
 * A title's BM25 counts this many times the summary's. Each field is length-normalised on its
 * own (BM25 per field, then a weighted sum), so a long summary does not dilute a title hit, and
 * term saturation keeps a summary that repeats a term from outweighing a title of usual length.
 */
export const TITLE_WEIGHT = 3;

// Per document, one map for both fields (one lookup per term, not two): the title's count in
// the high part of the number, the summary's in the low part.
const FIELD = 2 ** 26;

interface DocTerms {
  tf: Map<string, number>;
  titleLength: number;
  summaryLength: number;
}

const docCache = new WeakMap<PolicyRecord, DocTerms>();
// One string per distinct term across all documents: less memory, and a lookup compares its
// key with a string that stays in cache.
const termStrings = new Map<string, string>();

function intern(term: string): string {
  const known = termStrings.get(term);
  if (known !== undefined) return known;
  termStrings.set(term, term);
  return term;
}

function docTerms(v: PolicyRecord): DocTerms {
  let terms = docCache.get(v);
  if (!terms) {
    const title = tokenize(stripMarkup(v.title));
    const summary = tokenize(stripMarkup(v.summary ?? ""));
    const tf = new Map<string, number>();
    for (const t of title) tf.set(intern(t), (tf.get(t) ?? 0) + FIELD);
    for (const t of summary) tf.set(intern(t), (tf.get(t) ?? 0) + 1);
    terms = { tf, titleLength: title.length, summaryLength: summary.length };
    docCache.set(v, terms);
  }
  return terms;
}

function bm25Part(idf: number, f: number, length: number, avgLength: number): number {
  return (idf * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * length) / avgLength));
}

/**
 * Rule Ordering: BM25 of `terms` against title (weighted) and summary, over the versions that
 * passed the filters (they are the collection for document frequency); null where no term occurs.
 */
export function scoreVersions(
  versions: readonly PolicyRecord[],
  terms: readonly string[],
): (number | null)[] {
  const unique = [...new Set(terms)].map((t) => termStrings.get(t) ?? t);
  const n = versions.length;
  const k = unique.length;
  if (k === 0 || n === 0) return versions.map(() => null);
  // One pass over the documents (their maps are scattered in memory, each visit is a cache
  // miss): frequencies and lengths into flat arrays, and each term's document frequency.
  const freq = new Float64Array(n * k);
  const titleLength = new Float64Array(n);
  const summaryLength = new Float64Array(n);
  const df = new Float64Array(k);
  let titleTotal = 0;
  let summaryTotal = 0;
  for (let i = 0; i < n; i++) {
    const d = docTerms(versions[i] as PolicyRecord);
    titleLength[i] = d.titleLength;
    summaryLength[i] = d.summaryLength;
    titleTotal += d.titleLength;
    summaryTotal += d.summaryLength;
    for (let j = 0; j < k; j++) {
      const both = d.tf.get(unique[j] as string) ?? 0;
      freq[i * k + j] = both;
      if (both) df[j] = (df[j] as number) + 1;
    }
  }
  const avgTitle = titleTotal / n || 1;
  const avgSummary = summaryTotal / n || 1;
  const idf = Array.from(df, (f) => Math.log(1 + (n - f + 0.5) / (f + 0.5)));
  const scores = new Array<number | null>(n);
  for (let i = 0; i < n; i++) {
    let score = 0;
    for (let j = 0; j < k; j++) {
      const both = freq[i * k + j] as number;
      if (!both) continue;
      const w = idf[j] as number;
      const inTitle = Math.floor(both / FIELD);
      const inSummary = both % FIELD;
      if (inTitle) score += TITLE_WEIGHT * bm25Part(w, inTitle, titleLength[i] as number, avgTitle);
      if (inSummary) score += bm25Part(w, inSummary, summaryLength[i] as number, avgSummary);
    }
    // Rounded so the same score prints the same through every transport and ties are real ties.
    scores[i] = score > 0 ? Math.max(Math.round(score * 1e6) / 1e6, 1e-6) : null;
  }
  return scores;
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

// compareByRelevance without the id tie-break: a stable sort with it keeps ties in input order.
function compareScores(a: Ranked, b: Ranked): number {
  if (a.score === b.score) return 0;
  if (a.score === null) return 1;
  if (b.score === null) return -1;
  return b.score - a.score;
}

/**
 * Rule Ordering for versions given in policy-id order (the engine's candidates always are): the
 * order compareByRelevance gives, reached without comparing ids. Scores are whole millionths
 * (scoreVersions rounds them), so each entry becomes one number (millionths descending, then
 * position) and a typed array sorts them natively.
 */
export function rankInIdOrder(
  versions: readonly PolicyRecord[],
  scores: readonly (number | null)[],
): Ranked[] {
  const n = versions.length;
  const ranked = versions.map((version, i) => ({ version, score: scores[i] ?? null }));
  const micros = new Float64Array(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const score = (ranked[i] as Ranked).score;
    if (score === null) continue;
    const m = Math.round(score * 1e6);
    if (m <= 0 || m / 1e6 !== score) return ranked.sort(compareScores);
    micros[i] = m;
    if (m > max) max = m;
  }
  if ((max + 1) * n >= Number.MAX_SAFE_INTEGER) return ranked.sort(compareScores);
  const keys = micros.map((m, i) => (max - m) * n + i).sort();
  return Array.from(keys, (key) => ranked[key % n] as Ranked);
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
export function buildComparator(
  sort: Exclude<Sort, "relevance">,
): (a: PolicyRecord, b: PolicyRecord) => number {
  return ASCENDING[sort];
}
