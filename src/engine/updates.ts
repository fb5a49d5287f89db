import type { Envelope, PolicyUpdate, UpdatesQuery } from "../contract/index.js";
import { compareCaseInsensitive, compareCodePoints } from "./compare.js";
import type { Db, PolicyRecord } from "./db.js";
import { slicePage } from "./paginate.js";
import { addDays } from "./time.js";

export const DEFAULT_UPDATE_DAYS = 30;

/** Rule Updates: `new` when no other version of the same policy starts earlier. */
export function classifyChange(db: Db, version: PolicyRecord): "new" | "updated" {
  const series = db.bySeries.get(version.series) ?? [];
  return series.some((o) => o !== version && o.effective_from_date < version.effective_from_date)
    ? "updated"
    : "new";
}

/**
 * Rule Updates: versions with `today - days <= from <= today`, one item per payer linked ever,
 * by date descending, then payer name, then policy id (then payer id, so equal names of two
 * payers still come out in one fixed order).
 */
export function listUpdates(db: Db, query: UpdatesQuery, today: string): Envelope<PolicyUpdate> {
  const since = addDays(today, -(query.days ?? DEFAULT_UPDATE_DAYS));
  const items: PolicyUpdate[] = [];
  const versions = db.index
    ? db.index.findStartingBetween(since, today).map((i) => db.policies[i] as PolicyRecord)
    : db.policies;
  for (const v of versions) {
    if (v.effective_from_date < since || v.effective_from_date > today) continue;
    const change_type = classifyChange(db, v);
    const payerIds = [...new Set(v.links.map((l) => l.lob.payer_id))];
    for (const payerId of payerIds) {
      items.push({
        policy_id: v.policy_id,
        policy_number: v.policy_number,
        title: v.title,
        effective_from_date: v.effective_from_date,
        change_type,
        payer_id: payerId,
        payer_display_name: db.payers.get(payerId)?.display_name ?? payerId,
        file_url: v.file_url,
      });
    }
  }
  items.sort(
    (a, b) =>
      compareCodePoints(b.effective_from_date, a.effective_from_date) ||
      compareCaseInsensitive(a.payer_display_name, b.payer_display_name) ||
      compareCodePoints(a.policy_id, b.policy_id) ||
      compareCodePoints(a.payer_id, b.payer_id),
  );
  return slicePage(items, query.limit, query.offset);
}
