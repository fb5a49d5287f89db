import type {
  CodeGroup,
  Envelope,
  FilterRequest,
  Policy,
  PolicyFilter,
} from "../contract/index.js";
import {
  compileCodeRefs,
  findCodeCandidates,
  isSettledByCandidates,
  matchesCompiledCodeRefs,
  pickFirstFilteredCodeKeys,
  type CompiledCodeRefs,
} from "./codes.js";
import { NO_BUDGET, type Budget } from "./budget.js";
import type { Db, PolicyRecord } from "./db.js";
import {
  compileScope,
  hasScopeFilter,
  matchesVersionScope,
  selectLinks,
  type CompiledScope,
} from "./links.js";
import { DEFAULT_LIMIT, slicePage } from "./paginate.js";
import {
  buildComparator,
  listUnscored,
  rankPositions,
  rankScored,
  scoreIndexed,
  scoreVersions,
  type RankedList,
} from "./rank.js";
import type { FilterCache } from "./filter-cache.js";
import { buildApplicability, buildCodeGroups, readDescriptions, toPolicyItem } from "./shape.js";
import { getTextIndex, hasTextIndex } from "./text-index.js";
import { tokenize } from "./text.js";
import { matchesRetired, overlapsWindow } from "./time.js";

/**
 * A filter made once per request: its code refs and scope lists as sets and maps, so testing a
 * version costs that version's links, whatever the size of the request.
 */
export interface CompiledFilter {
  readonly filter: PolicyFilter | null | undefined;
  readonly codeRefs: CompiledCodeRefs | null;
  readonly scope: CompiledScope | null;
}

/** Compiles a request's filter for matchesFilter (once per request, never per version). */
export function compileFilter(filter: PolicyFilter | null | undefined): CompiledFilter {
  return {
    filter,
    codeRefs: filter?.code_refs ? compileCodeRefs(filter.code_refs) : null,
    scope: filter && hasScopeFilter(filter) ? compileScope(filter) : null,
  };
}

/** Rule Filter 7: every filter field AND-ed (lists OR-ed inside their own matchers). */
export function matchesFilter(
  version: PolicyRecord,
  compiled: CompiledFilter,
  today: string,
): boolean {
  const { filter } = compiled;
  if (!filter) return true;
  if (!matchesRetired(version.effective_to_date, filter.retired)) return false;
  if (
    filter.effective_date &&
    !overlapsWindow(version.effective_from_date, version.effective_to_date, filter.effective_date)
  )
    return false;
  // Scope before codes: a version has a few links and many code links (a snapshot reads them
  // only for the versions still in the running).
  if (compiled.scope && !matchesVersionScope(version, filter, compiled.scope, today)) return false;
  if (compiled.codeRefs && !matchesCompiledCodeRefs(version, compiled.codeRefs)) return false;
  return true;
}

/**
 * Rule Ordering: the ranking terms, from `q`, else the first 20 filtered codes' descriptions;
 * null when there is nothing to rank by. A `q` without any term (blank, only punctuation)
 * counts as no `q`.
 */
export function extractRankingTerms(
  db: Db,
  filter: PolicyFilter | null | undefined,
): string[] | null {
  const qTerms = tokenize(filter?.q ?? "");
  if (qTerms.length > 0) return qTerms;
  if (filter?.code_refs) {
    return pickFirstFilteredCodeKeys(filter.code_refs).flatMap((key) =>
      tokenize(db.catalogue.get(key) ?? ""),
    );
  }
  return null;
}

// `q` ranks through the text index once the filters leave this share of the versions or more
// (or the index exists already); below it, tokenising just those versions (scoreVersions) is
// cheaper than indexing them all, unless the query's many terms make the scan (versions x terms
// lookups) cost more than the collection: then the index, whose cost is the terms' postings.
// Code descriptions take scoreVersions, their many terms being common words whose postings
// are far longer than a code search's few candidates, unless a store on disk has each term's
// postings in one read and they number under POSTINGS_PER_VERSION per candidate.
const INDEX_SHARE = 1 / 8;
// Reading a candidate's row and tokenising its title and summary costs about as much as
// reading and adding this many postings (measured on the bench's 5M-link snapshot).
const POSTINGS_PER_VERSION = 500;

/**
 * Orders the matching versions (`positions`, ascending indexes into db.policies, so in policy-id
 * order) by the request's sort, with scores only under relevance.
 */
function sortVersions(
  db: Db,
  positions: readonly number[],
  request: FilterRequest,
  budget: Budget,
): RankedList {
  const sort = request.sort ?? "relevance";
  // Lists of positions, not of records: a server keeps them (FilterCache), and a record is
  // read again for the page that shows it. Typed arrays: their contents are off the JS heap,
  // so young-generation collections do not copy a kept list again and again.
  if (sort === "policy_id_asc" || sort === "policy_id_desc") {
    // Positions ascend in policy-id order already (both stores keep versions so): no records
    // read, no comparisons. Looking up a key's versions probes such pages ~16 times, and the
    // sort was most of each probe (~40 ms on 20,000 versions).
    const order = inIdOrder(positions);
    if (order) return listUnscored(db.policies, sort === "policy_id_asc" ? order : order.reverse());
  }
  if (sort !== "relevance") {
    const versions = readRecords(db, positions);
    const compare = buildComparator(sort);
    const order = Array.from(versions.keys()).sort(
      (a, b) => compare(versions[a] as PolicyRecord, versions[b] as PolicyRecord) || a - b,
    );
    return listUnscored(
      db.policies,
      Int32Array.from(order, (i) => positions[i] as number),
    );
  }
  const kept = keepPositions(db, positions);
  const terms = extractRankingTerms(db, request.policies);
  if (terms === null) return listUnscored(db.policies, kept);
  const qTerms = new Set(tokenize(request.policies?.q ?? "")).size;
  if (
    qTerms > 0
      ? hasTextIndex(db) ||
        positions.length >= db.policies.length * INDEX_SHARE ||
        positions.length * qTerms >= db.policies.length
      : db.index !== undefined &&
        db.index.countPostings(terms) < positions.length * POSTINGS_PER_VERSION
  ) {
    const scored = scoreIndexed(getTextIndex(db, terms), positions, terms, budget);
    return rankScored(db.policies, kept, scored);
  }
  const versions = readRecords(db, positions);
  return rankPositions(db.policies, kept, scoreVersions(versions, terms, budget));
}

/** The positions as a typed array when they strictly ascend (so in policy-id order), else undefined. */
function inIdOrder(positions: readonly number[]): Int32Array | undefined {
  for (let i = 1; i < positions.length; i++)
    if ((positions[i] as number) <= (positions[i - 1] as number)) return undefined;
  return Int32Array.from(positions);
}

/** The records at `positions` with their titles and summaries (a sort or a ranking reads them). */
function readRecords(db: Db, positions: readonly number[]): PolicyRecord[] {
  const at = readVersions(db);
  return inSlices(db, positions, true, (slice) => slice.map(at));
}

/**
 * `take` over `positions`, a slice at a time, each slice's records read (prefetched) by a store
 * on disk just before: it keeps at most 50,000 records, so read at once, the first of more
 * would be forgotten before they were taken, then read again one by one. With `text`, their
 * titles and summaries as well.
 */
function inSlices<T>(
  db: Db,
  positions: readonly number[],
  text: boolean,
  take: (slice: readonly number[]) => T[],
): T[] {
  const { index } = db;
  if (!index || positions.length <= PREFETCH_SLICE) {
    index?.prefetch(positions, text);
    return take(positions);
  }
  const out: T[] = [];
  for (let i = 0; i < positions.length; i += PREFETCH_SLICE) {
    const slice = positions.slice(i, i + PREFETCH_SLICE);
    index.prefetch(slice, text);
    for (const item of take(slice)) out.push(item);
  }
  return out;
}

/** `positions` as an Int32Array; every position of the db as one array made once. */
function keepPositions(db: Db, positions: readonly number[]): Int32Array {
  if (positions !== allPositions.get(db)) return Int32Array.from(positions);
  let all = allPositions32.get(db);
  if (!all) allPositions32.set(db, (all = Int32Array.from(positions)));
  return all;
}

/** How to read the version at a position: a snapshot's list is a Proxy, slow per element. */
function readVersions(db: Db): (position: number) => PolicyRecord {
  const { index, policies } = db;
  return index ? (i) => index.versionAt(i) as PolicyRecord : (i) => policies[i] as PolicyRecord;
}

/** The numbers in both ascending lists, ascending. */
function intersectSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out;
}

// Every position of a db, made once: a `q`-only query would otherwise build 20,000 of them.
const allPositions = new WeakMap<Db, readonly number[]>();
const allPositions32 = new WeakMap<Db, Int32Array>();

// Candidates between two looks at the clock: a version under `match: all` may be tested against
// many refs, so not too many of them.
const CHECK_CANDIDATES = 15;

// Candidates whose records a store on disk reads at once (it keeps 50,000).
const PREFETCH_SLICE = 10_000;

/** Indexes into db.policies of the versions that pass the filter, ascending. */
function findMatching(
  db: Db,
  filter: PolicyFilter | null | undefined,
  today: string,
  budget: Budget,
): readonly number[] {
  const compiled = compileFilter(filter);
  const at = readVersions(db);
  const keep = (positions: Iterable<number>, tests = compiled): number[] => {
    const out: number[] = [];
    let n = 0;
    for (const i of positions) {
      if ((n++ & CHECK_CANDIDATES) === 0) budget.check();
      if (matchesFilter(at(i), tests, today)) out.push(i);
    }
    return out;
  };
  // A store on disk reads the candidates' records in slices, each tested before the next is
  // read (inSlices): a broad scope filter on a large snapshot has more than it keeps.
  const readAndKeep = (positions: readonly number[], tests = compiled): number[] =>
    inSlices(db, positions, false, (slice) => keep(slice, tests));
  if (filter?.code_refs && compiled.codeRefs) {
    const byCode = findCodeCandidates(db.byCode, compiled.codeRefs, budget);
    // A store on disk narrows by its scope and date indexes as well, before reading records.
    const narrowed =
      db.index && (filter.retired != null || filter.effective_date || hasScopeFilter(filter))
        ? intersectSorted(byCode, db.index.findCandidates(filter, today, byCode))
        : byCode;
    // Without relationship lists the code index settles Rule Filter 5 by itself: testing each
    // candidate's code links again (tens per version) was a third of such a request.
    if (!isSettledByCandidates(compiled.codeRefs)) return readAndKeep(narrowed);
    const rest = { ...compiled, codeRefs: null };
    if (rest.scope || filter.retired != null || filter.effective_date)
      return db.index?.settles(filter, today) ? narrowed : readAndKeep(narrowed, rest);
    return narrowed;
  }
  // Only `q` (or nothing) given: every version passes, without asking each one.
  if (!filter || (filter.retired == null && !filter.effective_date && !hasScopeFilter(filter))) {
    let all = allPositions.get(db);
    if (!all) allPositions.set(db, (all = Array.from({ length: db.policies.length }, (_, i) => i)));
    return all;
  }
  // A store on disk narrows by its indexes first; the rules then decide on just those records.
  if (db.index) {
    const candidates = db.index.findCandidates(filter, today);
    return db.index.settles(filter, today) ? candidates : readAndKeep(candidates);
  }
  return keep(db.policies.keys());
}

/**
 * `POST /v1/policies/filter` over the dataset: filter, rank or sort, page, shape. With a
 * `cache` (a server's, for this db only), the filtered and ranked list is kept for the next
 * request with the same filter, sort and today, whatever its page and includes, and so are the
 * code groups of the versions shaped.
 */
export function filterPolicies(
  db: Db,
  request: FilterRequest,
  today: string,
  budget: Budget = NO_BUDGET,
  cache?: FilterCache,
): Envelope<Policy> {
  const filter = request.policies;
  const key = cache ? cache.keyOf(request, today) : "";
  let ranked = cache?.get(key);
  if (!ranked) {
    ranked = sortVersions(db, findMatching(db, filter, today, budget), request, budget);
    cache?.set(key, ranked);
  }
  // A store on disk reads the page's records (and what the page shows of them) in one go each.
  if (db.index && ranked.positionsOf) {
    const offset = request.offset ?? 0;
    db.index.readPage(ranked.positionsOf(offset, offset + (request.limit ?? DEFAULT_LIMIT)), {
      links: Boolean(request.include_applicability),
      codeGroups: Boolean(request.include_code_groups),
    });
  }
  const page = slicePage(ranked, request.limit, request.offset);
  // Groups the cache holds are taken first (a later insertion could push them out), then the
  // descriptions of the rest in one read, not one per code of each version.
  const kept = new Map<PolicyRecord, CodeGroup[]>();
  if (request.include_code_groups && cache)
    for (const { version } of page.data) {
      const groups = cache.getCodeGroups(version);
      if (groups) kept.set(version, groups);
    }
  const descriptions = request.include_code_groups
    ? readDescriptions(
        db,
        page.data.map((item) => item.version).filter((v) => !kept.has(v)),
      )
    : null;
  return {
    ...page,
    data: page.data.map(({ version, score }) =>
      toPolicyItem(version, {
        score,
        applicability: request.include_applicability
          ? buildApplicability(selectLinks(version, filter, today))
          : null,
        code_groups: descriptions
          ? (kept.get(version) ??
            cache?.keepCodeGroups(version, buildCodeGroups(db, version, descriptions)) ??
            buildCodeGroups(db, version, descriptions))
          : null,
      }),
    ),
  };
}
