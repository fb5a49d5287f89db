import type { Envelope, Policy } from "../contract/index.js";
import { compareCaseInsensitive } from "../domain/compare.js";
import { MAX_PROBES, PROBE_LIMIT } from "./find-versions.js";

type FetchPage = (offset: number) => Promise<Envelope<Policy>>;

/** The filter body of a probe in policy number order (case-insensitive, as rules.md sorts). */
export function buildNumberProbeBody(offset: number): Record<string, unknown> {
  return { sort: "policy_number_asc", limit: PROBE_LIMIT, offset };
}

/**
 * The versions whose policy number is `number` (any case), over pages sorted by policy number:
 * a galloping then binary search as VersionFinder does by id (about 2·log2(versions / 100)
 * requests, at most MAX_PROBES). What `policy L33718` needs to name the key of a number.
 */
export async function findByNumber(fetchPage: FetchPage, number: string): Promise<Policy[]> {
  const pages = new Map<number, Promise<Envelope<Policy>>>();
  let left = MAX_PROBES;
  const page = (index: number) => {
    let p = pages.get(index);
    if (!p) {
      if (left-- <= 0) return Promise.resolve(undefined);
      pages.set(index, (p = fetchPage(index * PROBE_LIMIT)));
    }
    return p;
  };
  const reaches = async (index: number) => {
    const p = await page(index);
    const last = p?.data[p.data.length - 1];
    return !p || !p.has_more || !last || compareCaseInsensitive(last.policy_number, number) >= 0;
  };
  let lo = 0;
  let hi = 0;
  if (!(await reaches(0))) {
    hi = 1;
    while (!(await reaches(hi))) [lo, hi] = [hi, hi * 2 + 1];
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (await reaches(mid)) hi = mid;
      else lo = mid;
    }
  }
  const found: Policy[] = [];
  for (let index = hi; ; index++) {
    const p = await page(index);
    if (!p) break;
    const after = p.data.filter((v) => compareCaseInsensitive(v.policy_number, number) >= 0);
    const same = after.filter((v) => compareCaseInsensitive(v.policy_number, number) === 0);
    found.push(...same);
    if (same.length < after.length || !p.has_more || p.data.length === 0) break;
  }
  return found;
}
