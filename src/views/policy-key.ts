import type { Policy } from "../contract/index.js";
import { compareCodePoints } from "../domain/compare.js";
import { isInEffect } from "../engine/time.js";

const DATE_SEGMENT = /^\d{4}-\d{2}-\d{2}$/;

/** A policy id split into its key (everything before the last `/`) and its date. */
export interface PolicyIdParts {
  key: string;
  date: string;
}

/** The key and date of a version id (`cms-lcd/L33718/2024-01-01`), or undefined for a key. */
export function splitPolicyId(id: string): PolicyIdParts | undefined {
  const slash = id.lastIndexOf("/");
  if (slash <= 0) return undefined;
  const date = id.slice(slash + 1);
  return DATE_SEGMENT.test(date) ? { key: id.slice(0, slash), date } : undefined;
}

/** Whether an id is a version of `key`: the key, one slash, then a date (not a longer key). */
export function isVersionOf(id: string, key: string): boolean {
  return splitPolicyId(id)?.key === key;
}

/** Every version of `key` among sorted list items, oldest first (by effective date, then id). */
export function selectVersions<T extends Pick<Policy, "policy_id" | "effective_from_date">>(
  items: readonly T[],
  key: string,
): T[] {
  const seen = new Set<string>();
  return items
    .filter((p) => isVersionOf(p.policy_id, key) && !seen.has(p.policy_id) && seen.add(p.policy_id))
    .sort(
      (a, b) =>
        compareCodePoints(a.effective_from_date, b.effective_from_date) ||
        compareCodePoints(a.policy_id, b.policy_id),
    );
}

type Dated = Pick<Policy, "policy_id" | "effective_from_date" | "effective_to_date">;

/** The version in effect on `day`, else undefined. */
export function findVersionOn<T extends Dated>(versions: readonly T[], day: string): T | undefined {
  // Newest first: should periods overlap in a dataset, the later version wins.
  return [...versions]
    .reverse()
    .find((v) => isInEffect(v.effective_from_date, v.effective_to_date, day));
}

/** `coverage policy KEY`: the version in effect today, else the latest (oldest-first input). */
export function pickVersion<T extends Dated>(versions: readonly T[], today: string): T | undefined {
  return findVersionOn(versions, today) ?? versions[versions.length - 1];
}

/** The version just before `id` among oldest-first versions (its predecessor), or undefined. */
export function findPredecessor<T extends Dated>(
  versions: readonly T[],
  id: string,
): T | undefined {
  const i = versions.findIndex((v) => v.policy_id === id);
  return i > 0 ? versions[i - 1] : undefined;
}
