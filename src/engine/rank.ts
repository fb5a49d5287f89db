import type { Sort } from "../contract/index.js";
import { CHECK_EVERY, NO_BUDGET, type Budget } from "./budget.js";
import { compareCaseInsensitive, compareCodePoints } from "./compare.js";
import type { PolicyRecord } from "./db.js";
import { stripMarkup, tokenize } from "./text.js";
import type { TextIndex } from "./text-index.js";

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
  budget: Budget = NO_BUDGET,
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
    if ((i & CHECK_EVERY) === 0) budget.check();
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

/** The versions a text query scores: positions ascending, each with its score (rounded, > 0). */
export interface ScoredPositions {
  positions: Int32Array;
  scores: Float64Array;
}

/**
 * scoreVersions over a TextIndex, for the versions at `positions` (distinct, ascending indexes
 * into the indexed versions, the ones that passed the filters): the same numbers, reached through
 * the postings of the query's terms. Only versions with a score are returned.
 */
export function scoreIndexed(
  index: TextIndex,
  positions: readonly number[],
  terms: readonly string[],
  budget: Budget = NO_BUDGET,
): ScoredPositions {
  const { start, docs, titleCounts, summaryCounts, titleLengths, summaryLengths } = index;
  const total = titleLengths.length;
  const n = positions.length;
  // A term no version holds adds nothing to any score, as in scoreVersions.
  const ids: number[] = [];
  for (const t of new Set(terms)) {
    const id = index.terms.get(t);
    if (id !== undefined) ids.push(id);
  }
  if (ids.length === 0 || n === 0)
    return { positions: new Int32Array(0), scores: new Float64Array(0) };
  // Distinct positions as many as the versions: all of them, so the index's totals hold and no
  // posting needs a membership test.
  let member: Uint8Array | null = null;
  let titleTotal = index.titleTotal;
  let summaryTotal = index.summaryTotal;
  if (n !== total) {
    member = new Uint8Array(total);
    titleTotal = 0;
    summaryTotal = 0;
    for (const p of positions) {
      member[p] = 1;
      titleTotal += titleLengths[p] as number;
      summaryTotal += summaryLengths[p] as number;
    }
  }
  const avgTitle = titleTotal / n || 1;
  const avgSummary = summaryTotal / n || 1;
  // Terms in the query's order, title before summary: each version's sum is made of the same
  // additions in the same order as scoreVersions's, so the doubles are bit-identical.
  const sums = index.sums;
  // The scratch must be all zeros for the next query, also when the budget stops this one.
  try {
    for (const id of ids) {
      budget.check();
      const from = start[id] as number;
      const to = start[id + 1] as number;
      // The postings of the members: every posting tested, or, when the members are far fewer
      // than the postings (a code's few hundred versions against a common word's tens of
      // thousands), each member looked up in the postings (ascending, so each search starts
      // where the last one ended).
      let hits: Int32Array | null = null;
      let df = to - from;
      if (member && n * SEARCH_RATIO < to - from) {
        hits = findPostings(docs, from, to, positions, hitScratch(n));
        df = hits.length;
      } else if (member) {
        df = 0;
        for (let p = from; p < to; p++) df += member[docs[p] as number] as number;
      }
      const w = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const count = hits ? hits.length : to - from;
      for (let i = 0; i < count; i++) {
        const p = hits ? (hits[i] as number) : from + i;
        const d = docs[p] as number;
        if (!hits && member && !member[d]) continue;
        const inTitle = titleCounts[p] as number;
        const inSummary = summaryCounts[p] as number;
        if (inTitle)
          sums[d] =
            (sums[d] as number) +
            TITLE_WEIGHT * bm25Part(w, inTitle, titleLengths[d] as number, avgTitle);
        if (inSummary)
          sums[d] =
            (sums[d] as number) + bm25Part(w, inSummary, summaryLengths[d] as number, avgSummary);
      }
    }
  } catch (err) {
    sums.fill(0);
    throw err;
  }
  // Typed arrays (off the JS heap, so thousands of scored versions per query do not churn the
  // young generation), counted first to be allocated at their size. Only positions' sums were
  // added to, and each is zeroed here, so the scratch is clean for the next query.
  let s = 0;
  for (let i = 0; i < n; i++) if ((sums[member ? (positions[i] as number) : i] as number) > 0) s++;
  const scoredAt = new Int32Array(s);
  const scores = new Float64Array(s);
  s = 0;
  for (let i = 0; i < n; i++) {
    const p = member ? (positions[i] as number) : i;
    const score = sums[p] as number;
    if (score > 0) {
      sums[p] = 0;
      scoredAt[s] = p;
      scores[s++] = Math.max(Math.round(score * 1e6) / 1e6, 1e-6);
    }
  }
  return { positions: scoredAt, scores };
}

// Members looked up one by one (a binary search each, ~17 steps for 100,000 postings) when
// there are fewer than one per this many postings.
const SEARCH_RATIO = 32;

let hitBuffer = new Int32Array(0);
function hitScratch(n: number): Int32Array {
  if (hitBuffer.length < n) hitBuffer = new Int32Array(n);
  return hitBuffer;
}

/**
 * Indexes into `docs[from..to)` (ascending) of the postings of the `members` (ascending,
 * distinct), in `out`; the view returned holds just the hits.
 */
export function findPostings(
  docs: ArrayLike<number>,
  from: number,
  to: number,
  members: ArrayLike<number>,
  out: Int32Array,
): Int32Array {
  let found = 0;
  let lo = from;
  for (let i = 0; i < members.length && lo < to; i++) {
    const want = members[i] as number;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((docs[mid] as number) < want) lo = mid + 1;
      else hi = mid;
    }
    if (lo < to && docs[lo] === want) out[found++] = lo++;
  }
  return out.subarray(0, found);
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

// compareByRelevance's order of scores alone: nulls last, higher first.
function compareScores(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}

/**
 * Indexes of `scores` in the order compareByRelevance gives entries that are in policy-id order:
 * score descending, ties and the nulls (last) by index. Scores are whole millionths (scoring
 * rounds them), so each becomes one number (millionths descending, then index) and a typed array
 * sorts them natively; other scores take a comparator.
 */
function orderByScore(scores: ArrayLike<number | null>, first = scores.length): ArrayLike<number> {
  const n = scores.length;
  const micros = new Float64Array(n);
  let max = 0;
  let whole = true;
  for (let i = 0; i < n && whole; i++) {
    const score = scores[i] ?? null;
    if (score === null) continue;
    const m = Math.round(score * 1e6);
    whole = m > 0 && m / 1e6 === score;
    micros[i] = m;
    if (m > max) max = m;
  }
  if (!whole || (max + 1) * n >= Number.MAX_SAFE_INTEGER) {
    const byScore = (a: number, b: number) =>
      compareScores(scores[a] ?? null, scores[b] ?? null) || a - b;
    return Array.from({ length: n }, (_, i) => i).sort(byScore);
  }
  const keys = micros.map((m, i) => (max - m) * n + i);
  // A page of 20 out of thousands: keep the smallest keys only (O(n log k)), not a full sort.
  const sorted = first * 8 < n ? selectSmallest(keys, first) : keys.sort();
  return sorted.map((key) => key % n);
}

/** The `k` smallest of `keys` (distinct numbers), ascending: a max-heap of size k. */
function selectSmallest(keys: Float64Array, k: number): Float64Array {
  const heap = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as number;
    if (size < k) {
      // Sift up.
      let c = size++;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        if ((heap[parent] as number) >= key) break;
        heap[c] = heap[parent] as number;
        c = parent;
      }
      heap[c] = key;
    } else if (k > 0 && key < (heap[0] as number)) {
      // Replace the largest kept key and sift down.
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= k) break;
        const r = l + 1;
        const big = r < k && (heap[r] as number) > (heap[l] as number) ? r : l;
        if ((heap[big] as number) <= key) break;
        heap[c] = heap[big] as number;
        c = big;
      }
      heap[c] = key;
    }
  }
  return heap.subarray(0, size).sort();
}

/** Rule Ordering for versions given in policy-id order (the engine's candidates always are). */
export function rankInIdOrder(
  versions: readonly PolicyRecord[],
  scores: readonly (number | null)[],
): Ranked[] {
  return Array.from(orderByScore(scores), (i) => ({
    version: versions[i] as PolicyRecord,
    score: scores[i] ?? null,
  }));
}

/**
 * rankInIdOrder for the versions at `positions` (ascending indexes into `versions`) scored
 * `scores`, as a list that keeps numbers only: a server keeps such lists, not the records.
 */
export function rankPositions(
  versions: readonly PolicyRecord[],
  positions: ArrayLike<number>,
  scores: readonly (number | null)[],
): RankedList {
  const order = orderByScore(scores);
  // Kept as typed arrays (NaN for no score): off the JS heap, not copied by young collections.
  const kept = Float64Array.from(scores, (score) => score ?? NaN);
  return listOf(versions, order.length, (from, to, take) => {
    for (let i = from; i < Math.min(to, order.length); i++) {
      const j = order[i] as number;
      const score = kept[j] as number;
      take(positions[j] as number, Number.isNaN(score) ? null : score);
    }
  });
}

/** A ranked list that makes only the entries a page asks for (an array is one too). */
export interface RankedList {
  readonly length: number;
  slice(start: number, end: number): Ranked[];
  /**
   * The positions (indexes into the versions) of the entries `slice` would give, without
   * making them: a store on disk reads a page's records in one go before they are made.
   */
  positionsOf?(start: number, end: number): number[];
}

/** A RankedList over `walk`, which hands each entry of a cut (its position and score) to `take`. */
function listOf(
  versions: readonly PolicyRecord[],
  length: number,
  walk: (from: number, to: number, take: (position: number, score: number | null) => void) => void,
): RankedList {
  return {
    length,
    slice(from, to) {
      const out: Ranked[] = [];
      walk(from, to, (p, score) => out.push({ version: versions[p] as PolicyRecord, score }));
      return out;
    },
    positionsOf(from, to) {
      const out: number[] = [];
      walk(from, to, (p) => out.push(p));
      return out;
    },
  };
}

/** Every version at `positions` (indexes into `versions`) in that order, unscored. */
export function listUnscored(
  versions: readonly PolicyRecord[],
  positions: ArrayLike<number>,
): RankedList {
  return listOf(versions, positions.length, (from, to, take) => {
    for (let i = from; i < Math.min(to, positions.length); i++) take(positions[i] as number, null);
  });
}

/**
 * Rule Ordering for the versions at `positions` (ascending indexes into `versions`, so in
 * policy-id order) given the scored ones among them: score descending, ties by position, then
 * the unscored in position order. Only the scored are sorted (as rankInIdOrder, one number per
 * entry in a typed array); the tail is walked only as far as a page reaches into it.
 */
export function rankScored(
  versions: readonly PolicyRecord[],
  positions: ArrayLike<number>,
  scored: ScoredPositions,
): RankedList {
  const s = scored.positions.length;
  // The scored entries' rank order, as far as a page has reached into them.
  let order: ArrayLike<number> | undefined;
  return listOf(versions, positions.length, (from, to, take) => {
    const end = Math.min(to, positions.length);
    if (from < s) {
      if (!order || order.length < Math.min(end, s)) order = orderByScore(scored.scores, end);
      for (let i = from; i < Math.min(end, s); i++) {
        const j = order[i] as number;
        take(scored.positions[j] as number, scored.scores[j] as number);
      }
    }
    // The tail: positions that are not scored, both lists ascending, so one merge walk.
    let skip = Math.max(0, from - s);
    let want = end - Math.max(from, s);
    let j = 0;
    for (let i = 0; i < positions.length && want > 0; i++) {
      const p = positions[i] as number;
      if (j < s && scored.positions[j] === p) {
        j++;
        continue;
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      take(p, null);
      want--;
    }
  });
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
