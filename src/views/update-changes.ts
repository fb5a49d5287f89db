import type { CodeReference, PolicyDetail, PolicyUpdate } from "../contract/index.js";
import { listRelationships } from "./coverage-summary.js";
import type { ChangeKind } from "./policy-diff.js";

/** What `updates --payer/--lob/--code` narrow to. */
export interface UpdateNarrowing {
  payerIds?: string[];
  lobs?: string[];
  refs?: CodeReference[];
}

/** Whether narrowing needs each version's detail (LOBs and codes are not in update items). */
export function needsDetail(n: UpdateNarrowing): boolean {
  return Boolean(n.lobs?.length || n.refs?.length);
}

/** The payer test alone: on the item's own payer, any case. */
export function matchesPayer(item: PolicyUpdate, n: UpdateNarrowing): boolean {
  return !n.payerIds || n.payerIds.some((p) => p.toUpperCase() === item.payer_id.toUpperCase());
}

/**
 * Whether an update item passes the narrowing: its payer is asked; the item's payer has a
 * scope of an asked LOB category in the version (any time: applicability of the detail); the
 * version lists one of the asked codes (rule Filter 5 normalisation).
 */
export function matchesUpdate(
  item: PolicyUpdate,
  detail: PolicyDetail | undefined,
  n: UpdateNarrowing,
): boolean {
  if (!matchesPayer(item, n)) return false;
  if (n.lobs?.length) {
    const lobs = n.lobs;
    const ok = detail?.applicability.some(
      (a) => a.payer_ids.includes(item.payer_id) && a.lobs.some((l) => lobs.includes(l)),
    );
    if (!ok) return false;
  }
  if (n.refs?.length && listRelationships(detail?.code_groups ?? [], n.refs).length === 0)
    return false;
  return true;
}

/** An update item with its classified changes (`updates --changes`). */
export type ClassifiedUpdate = PolicyUpdate & {
  changes: ChangeKind[];
  predecessor_id: string | null;
};

/** Adds `changes` and `predecessor_id` to an item (the API's fields untouched). */
export function annotateUpdate(
  item: PolicyUpdate,
  changes: ChangeKind[],
  predecessorId: string | null,
): ClassifiedUpdate {
  return { ...item, changes, predecessor_id: predecessorId };
}
