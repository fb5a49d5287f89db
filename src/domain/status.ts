// The status word of a version for people (cli.md Output, "Status words"). The API's `retired`
// flag (rules.md Time: "has an end date") also holds for a version in effect today whose end is
// still to come; shown as "retired", an analyst would drop a policy that is in force.

/** `upcoming`, `active`, `ending` (in effect, ends after today) or `retired` (ended). */
export type VersionStatus = "upcoming" | "active" | "ending" | "retired";

export const VERSION_STATUSES: readonly VersionStatus[] = [
  "upcoming",
  "active",
  "ending",
  "retired",
];

interface Period {
  effective_from_date: string;
  effective_to_date: string | null;
}

/** The status of a version on `today` (dates `YYYY-MM-DD`; the end date is exclusive). */
export function versionStatus(v: Period, today: string): VersionStatus {
  if (v.effective_from_date > today) return "upcoming";
  if (v.effective_to_date === null) return "active";
  return v.effective_to_date > today ? "ending" : "retired";
}

/**
 * The dates that go beside a status: `from 2024-08-22`, `ends 2027-01-01`, `ended 2026-11-15`,
 * `starts 2027-01-01` (with `, ends …` when an upcoming version has an end too).
 */
export function describeStatusDates(v: Period, today: string): string {
  const status = versionStatus(v, today);
  const to = v.effective_to_date;
  if (status === "upcoming") return `starts ${v.effective_from_date}${to ? `, ends ${to}` : ""}`;
  if (status === "active") return `from ${v.effective_from_date}`;
  if (status === "ending") return `ends ${to}`;
  return `ended ${to}`;
}
