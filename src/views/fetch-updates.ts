import type { ApiClient } from "../backend/client.js";
import type { Envelope, PolicyDetail, PolicyUpdate } from "../contract/index.js";
import { UsageError } from "../errors.js";
import { createDetailCache, createVersionFinder, mapLimited } from "./fetch.js";
import { classifyUpdate } from "./policy-diff.js";
import { findPredecessor, splitPolicyId } from "./policy-key.js";
import {
  annotateUpdate,
  matchesPayer,
  matchesUpdate,
  needsDetail,
  type UpdateNarrowing,
} from "./update-changes.js";

/** Versions `updates --lob/--code/--changes` reads the details of at most, over a run. */
export const MAX_UPDATE_DETAILS = 300;

/**
 * The page transform of `updates` with `--payer/--lob/--code` (narrowing) and `--changes`:
 * the payer is tested on the item; LOBs and codes on the version's detail (one GET per
 * version, memoised); `--changes` finds each updated version's predecessor (the versions of
 * its key, searched as `versions` does) and compares both details.
 */
export function createUpdatesTransform(
  client: ApiClient,
  narrowing: UpdateNarrowing,
  changes: boolean,
): (page: Envelope<PolicyUpdate>) => Promise<Envelope<PolicyUpdate>> {
  const cached = createDetailCache(client);
  const seen = new Set<string>();
  const detail = (id: string): Promise<PolicyDetail> => {
    seen.add(id);
    if (seen.size > MAX_UPDATE_DETAILS)
      throw new UsageError(
        `these updates need more than ${MAX_UPDATE_DETAILS} policy details; stopped`,
        "Narrow with --days, --payer or --limit (without --all), or drop --changes.",
      );
    return cached(id);
  };
  const finder = createVersionFinder(client);
  return async (page) => {
    let items = page.data.filter((u) => matchesPayer(u, narrowing));
    if (needsDetail(narrowing)) {
      const details = await mapLimited(items, (u) => detail(u.policy_id));
      items = items.filter((u, i) => matchesUpdate(u, details[i], narrowing));
    }
    if (changes)
      items = await mapLimited(items, async (u) => {
        const key = u.change_type === "new" ? undefined : splitPolicyId(u.policy_id)?.key;
        const previous = key
          ? findPredecessor(await finder.versionsOf(key), u.policy_id)
          : undefined;
        if (!previous) return annotateUpdate(u, ["new"], null);
        const [before, after] = await Promise.all([
          detail(previous.policy_id),
          detail(u.policy_id),
        ]);
        return annotateUpdate(u, classifyUpdate(before, after), previous.policy_id);
      });
    return { ...page, data: items };
  };
}
