import type { Policy } from "../contract/index.js";
import type { Db } from "./db.js";
import { toPolicyItem } from "./shape.js";

/**
 * The list items of the versions whose id is `key/...` one segment deeper (the store's series
 * index), in policy id order: what an unfiltered `policy_id_asc` listing holds of the key,
 * without paging through it.
 */
export function listSeries(db: Db, key: string): Policy[] {
  return [...(db.bySeries.get(key) ?? [])]
    .sort((a, b) => (a.policy_id < b.policy_id ? -1 : a.policy_id > b.policy_id ? 1 : 0))
    .map((v) => toPolicyItem(v, { score: null, applicability: null, code_groups: null }));
}
