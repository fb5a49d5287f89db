import type { Envelope, FilterRequest, Policy, PolicyFilter } from "../contract/index.js";
import { findCodeCandidates, pickFirstFilteredCodeKeys, matchesCodeRefs } from "./codes.js";
import type { Db, PolicyRecord } from "./db.js";
import { hasScopeFilter, matchesScope, selectLinks } from "./links.js";
import { slicePage } from "./paginate.js";
import {
  buildComparator,
  listUnscored,
  rankInIdOrder,
  rankScored,
  scoreIndexed,
  scoreVersions,
  type RankedList,
} from "./rank.js";
import { buildApplicability, buildCodeGroups, toPolicyItem } from "./shape.js";
import { getTextIndex, hasTextIndex } from "./text-index.js";
import { tokenize } from "./text.js";
import { matchesRetired, overlapsWindow } from "./time.js";

/** Rule Filter 7: every filter field AND-ed (lists OR-ed inside their own matchers). */
function matchesFilter(
  version: PolicyRecord,
  filter: PolicyFilter | null | undefined,
  today: string,
): boolean {
  if (!filter) return true;
  if (!matchesRetired(version.effective_to_date, filter.retired)) return false;
  if (
    filter.effective_date &&
    !overlapsWindow(version.effective_from_date, version.effective_to_date, filter.effective_date)
  )
    return false;
  // Scope before codes: a version has a few links and many code links (a snapshot reads them
  // only for the versions still in the running).
  if (hasScopeFilter(filter) && !matchesScope(selectLinks(version, filter, today), filter))
    return false;
  if (filter.code_refs && !matchesCodeRefs(version, filter.code_refs)) return false;
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
// cheaper than indexing them all. Code descriptions always take scoreVersions: their many terms
// are common words, whose postings are far longer than a code search's few candidates.
const INDEX_SHARE = 1 / 8;

/**
 * Orders the matching versions (`positions`, ascending indexes into db.policies, so in policy-id
 * order) by the request's sort, with scores only under relevance.
 */
function sortVersions(db: Db, positions: readonly number[], request: FilterRequest): RankedList {
  const sort = request.sort ?? "relevance";
  const at = (i: number) => db.policies[i] as PolicyRecord;
  if (sort !== "relevance") {
    return positions
      .map(at)
      .sort(buildComparator(sort))
      .map((version) => ({ version, score: null }));
  }
  const terms = extractRankingTerms(db, request.policies);
  if (terms === null) return listUnscored(db.policies, positions);
  if (
    tokenize(request.policies?.q ?? "").length > 0 &&
    (hasTextIndex(db) || positions.length >= db.policies.length * INDEX_SHARE)
  ) {
    const scored = scoreIndexed(getTextIndex(db, terms), positions, terms);
    return rankScored(db.policies, positions, scored);
  }
  const versions = positions.map(at);
  return rankInIdOrder(versions, scoreVersions(versions, terms));
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

/** Indexes into db.policies of the versions that pass the filter, ascending. */
function findMatching(
  db: Db,
  filter: PolicyFilter | null | undefined,
  today: string,
): readonly number[] {
  const matches = (i: number) => matchesFilter(db.policies[i] as PolicyRecord, filter, today);
  if (filter?.code_refs) {
    const byCode = findCodeCandidates(db.byCode, filter.code_refs);
    // A store on disk narrows by its scope and date indexes as well, before reading records.
    const narrowed =
      db.index && (filter.retired != null || filter.effective_date || hasScopeFilter(filter))
        ? intersectSorted(byCode, db.index.findCandidates(filter, today, byCode))
        : byCode;
    db.index?.prefetch(narrowed);
    return narrowed.filter(matches);
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
    db.index.prefetch(candidates);
    return candidates.filter(matches);
  }
  const out: number[] = [];
  for (let i = 0; i < db.policies.length; i++) if (matches(i)) out.push(i);
  return out;
}

/** `POST /v1/policies/filter` over the dataset: filter, rank or sort, page, shape. */
export function filterPolicies(db: Db, request: FilterRequest, today: string): Envelope<Policy> {
  const filter = request.policies;
  const ranked = sortVersions(db, findMatching(db, filter, today), request);
  const page = slicePage(ranked, request.limit, request.offset);
  return {
    ...page,
    data: page.data.map(({ version, score }) =>
      toPolicyItem(version, {
        score,
        applicability: request.include_applicability
          ? buildApplicability(selectLinks(version, filter, today))
          : null,
        code_groups: request.include_code_groups ? buildCodeGroups(db, version) : null,
      }),
    ),
  };
}
