import type { EffectiveDateFilter } from "../contract/index.js";

export type VersionState = "active" | "retired" | "upcoming";

/** Rule Time 1: flag, then environment, then the dataset's `as_of`, then the real date. */
export function resolveToday(
  flag: string | undefined,
  env: string | undefined,
  asOf: string | null,
  now: Date,
): string {
  return flag || env || asOf || now.toISOString().slice(0, 10);
}

/**
 * Rule Time 2: upcoming when it starts after today, else retired when it has an end date,
 * else active. Upcoming is checked first: a version that has not started has not ended either.
 */
export function versionState(
  v: { effective_from_date: string; effective_to_date: string | null },
  today: string,
): VersionState {
  if (v.effective_from_date > today) return "upcoming";
  return v.effective_to_date !== null ? "retired" : "active";
}

/** Rule Time 3: `[from, to)` is in effect on day d. */
export function isInEffect(from: string, to: string | null, day: string): boolean {
  return from <= day && (to === null || day < to);
}

/**
 * Rule Filter 2: `[from, to)` overlaps the inclusive window `[start, end]`. An empty period
 * (`to` = `from`: a retirement notice, in effect on no day) overlaps no window.
 */
export function overlapsWindow(
  from: string,
  to: string | null,
  window: EffectiveDateFilter,
): boolean {
  const start = window.start ?? null;
  const end = window.end ?? null;
  return (
    (to === null || to > from) &&
    (start === null || to === null || to > start) &&
    (end === null || from <= end)
  );
}

/** Rule Filter 3, current links: not ended as of today (includes links that start later). */
export function isCurrent(to: string | null, today: string): boolean {
  return to === null || to > today;
}

/** Rule Filter 1: the `retired` filter on a version's end date. */
export function matchesRetired(
  effectiveTo: string | null,
  retired: boolean | null | undefined,
): boolean {
  if (retired === null || retired === undefined) return true;
  return retired ? effectiveTo !== null : effectiveTo === null;
}

/** Shifts a `YYYY-MM-DD` day by whole days. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
