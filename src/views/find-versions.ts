import type { Envelope, Policy } from "../contract/index.js";
import { compareCodePoints } from "../domain/compare.js";
import { UnexpectedError, UsageError } from "../errors.js";
import { selectVersions } from "./policy-key.js";

/** Items per probe: the API's largest page. */
export const PROBE_LIMIT = 100;
/** Requests one look-up may spend finding a key's versions (2^30 versions need ~50). */
export const MAX_PROBES = 64;

/**
 * The filter body of every probe: no filter, ordered by policy id, one page. Versions of a key
 * share the id prefix `KEY/`, so in this order they stand together; nothing else in the API
 * narrows by id (`q` ranks and does not filter, and matches titles and summaries, not ids).
 */
export function buildProbeBody(offset: number): Record<string, unknown> {
  return { sort: "policy_id_asc", limit: PROBE_LIMIT, offset };
}

type FetchPage = (offset: number) => Promise<Envelope<Policy>>;

/**
 * Finds versions of policy keys over `POST /v1/policies/filter` sorted by policy id: a galloping
 * then binary search over pages (probes at offsets 0, 1, 3, 7, ... pages, then halving), each
 * page fetched once and shared by every key looked up. Cost: about 2·log2(versions / 100)
 * requests for the first key, fewer for the next ones; each look-up bounded by MAX_PROBES.
 */
export class VersionFinder {
  private readonly pages = new Map<number, Promise<Envelope<Policy>>>();
  /** Requests sent so far (for `--verbose` counts and tests). */
  requests = 0;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly maxProbes = MAX_PROBES,
  ) {}

  private page(index: number, budget: { left: number }): Promise<Envelope<Policy>> {
    let page = this.pages.get(index);
    if (!page) {
      if (budget.left-- <= 0)
        throw new UsageError(
          `finding policy versions needed more than ${this.maxProbes} requests; stopped`,
          "The server may not order by policy id; give a full version id (KEY/YYYY-MM-DD) instead.",
        );
      this.requests++;
      const offset = index * PROBE_LIMIT;
      page = this.fetchPage(offset).then((p) => checkProbe(p, offset));
      this.pages.set(index, page);
    }
    return page;
  }

  /** Whether page `index` ends at or after `target` (or is the last page). */
  private async reaches(index: number, target: string, budget: { left: number }): Promise<boolean> {
    const p = await this.page(index, budget);
    const last = p.data[p.data.length - 1];
    return !p.has_more || last === undefined || compareCodePoints(last.policy_id, target) >= 0;
  }

  /** The first page holding an id >= target (or the last page). */
  private async locate(target: string, budget: { left: number }): Promise<number> {
    if (await this.reaches(0, target, budget)) return 0;
    let lo = 0;
    let hi = 1;
    while (!(await this.reaches(hi, target, budget))) {
      lo = hi;
      hi = hi * 2 + 1;
    }
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (await this.reaches(mid, target, budget)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /**
   * The ids that sort beside `key/` (the page a look-up of it reads, and the page before when
   * already read): where a typo's right spelling most often is. No request beyond the look-up's.
   */
  async idsNear(key: string): Promise<string[]> {
    const index = await this.locate(`${key}/`, { left: this.maxProbes });
    const pages = [this.pages.get(index - 1), this.pages.get(index)];
    const read = await Promise.all(pages.map((p) => p ?? Promise.resolve(undefined)));
    return read.flatMap((p) => p?.data.map((item) => item.policy_id) ?? []);
  }

  /** Every version of `key` (list items without applicability), oldest first. */
  async versionsOf(key: string): Promise<Policy[]> {
    const prefix = `${key}/`;
    const found: Policy[] = [];
    const budget = { left: this.maxProbes };
    for (let index = await this.locate(prefix, budget); ; index++) {
      const p = await this.page(index, budget);
      const after = p.data.filter((item) => compareCodePoints(item.policy_id, prefix) >= 0);
      const inside = after.filter((item) => item.policy_id.startsWith(prefix));
      found.push(...inside);
      if (inside.length < after.length || !p.has_more || p.data.length === 0) break;
    }
    return selectVersions(found, key);
  }
}

/** A probe page must be the one asked for, in id order: otherwise the search would be wrong. */
function checkProbe(page: Envelope<Policy>, offset: number): Envelope<Policy> {
  if (page.offset !== offset)
    throw new UnexpectedError(
      `the server answered offset ${page.offset} when asked for ${offset}: it ignores paging (sandbox?), so policy versions cannot be listed`,
      "Give full version ids (KEY/YYYY-MM-DD), or use the production API or --local.",
    );
  for (let i = 1; i < page.data.length; i++)
    if (compareCodePoints(page.data[i - 1]!.policy_id, page.data[i]!.policy_id) > 0)
      throw new UnexpectedError(
        "the server did not order policy_id_asc results by policy id, so policy versions cannot be listed",
        "Give full version ids (KEY/YYYY-MM-DD), or report it to the API's operator.",
      );
  return page;
}
