import type { Envelope, FilterRequest, Policy, PolicyFilter } from "../contract/index.js";
import { findCodeCandidates, pickFirstFilteredCodeKeys, matchesCodeRefs } from "./codes.js";
import type { Db, PolicyRecord } from "./db.js";
import { hasScopeFilter, matchesScope, selectLinks } from "./links.js";
import { slicePage } from "./paginate.js";
import { buildComparator, rankInIdOrder, scoreVersions, type Ranked } from "./rank.js";
import { buildApplicability, buildCodeGroups, toPolicyItem } from "./shape.js";
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
  if (filter.code_refs && !matchesCodeRefs(version, filter.code_refs)) return false;
  if (hasScopeFilter(filter) && !matchesScope(selectLinks(version, filter, today), filter))
    return false;
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

/**
 * Orders the matching versions by the request's sort, with scores only under relevance.
 * `versions` come in policy-id order (as filterPolicies's candidates do).
 */
function sortVersions(db: Db, versions: PolicyRecord[], request: FilterRequest): Ranked[] {
  const sort = request.sort ?? "relevance";
  if (sort !== "relevance") {
    return versions.sort(buildComparator(sort)).map((version) => ({ version, score: null }));
  }
  const terms = extractRankingTerms(db, request.policies);
  if (terms === null) return versions.map((version) => ({ version, score: null }));
  return rankInIdOrder(versions, scoreVersions(versions, terms));
}

/** `POST /v1/policies/filter` over the dataset: filter, rank or sort, page, shape. */
export function filterPolicies(db: Db, request: FilterRequest, today: string): Envelope<Policy> {
  const filter = request.policies;
  const candidates = filter?.code_refs
    ? findCodeCandidates(db.byCode, filter.code_refs).map((i) => db.policies[i] as PolicyRecord)
    : db.policies;
  // db.policies is in policy-id order, and so are the candidates: the no-ranking order for free.
  const matching = candidates.filter((v) => matchesFilter(v, filter, today));
  const ranked = sortVersions(db, matching, request);
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
