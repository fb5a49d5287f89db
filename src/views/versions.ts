import type { PolicyDetail } from "../contract/index.js";
import { versionStatus, type VersionStatus } from "../domain/status.js";
import {
  diffPolicies,
  type ChangeKind,
  type CmsRevisionNote,
  type PolicyDiff,
} from "./policy-diff.js";

/** What changed from the previous version, in counts (`versions`). */
export interface StepSummary {
  kinds: ChangeKind[];
  codes_added: number;
  codes_removed: number;
  codes_changed: number;
  scopes_gained: number;
  scopes_lost: number;
  criteria_changed: boolean;
  /** Other fields that changed (title, summary...), the dates left out: they always change. */
  fields: string[];
}

export interface VersionRow {
  policy_id: string;
  policy_number: string;
  title: string;
  effective_from_date: string;
  effective_to_date: string | null;
  status: VersionStatus;
  /** Null for the first version. */
  changes: StepSummary | null;
  /** CMS's own record of the version (its revision date and reason), where the data has it. */
  cms_revision?: CmsRevisionNote;
  /**
   * On the latest version only: the day CMS says the document will retire (its future-retire
   * tables, `lcd_future_retire` / `article_future_retire`), where the data has it.
   */
  cms_retires_on?: string;
}

/** `coverage versions --json`. */
export interface VersionsReport {
  key: string;
  versions: VersionRow[];
}

/** A diff in counts. */
export function summarizeStep(d: PolicyDiff): StepSummary {
  return {
    kinds: d.kinds,
    codes_added: d.codes.added.length,
    codes_removed: d.codes.removed.length,
    codes_changed: d.codes.changed.length,
    scopes_gained: d.applicability.gained.length,
    scopes_lost: d.applicability.lost.length,
    criteria_changed: d.criteria.changed,
    fields: d.fields
      .map((f) => f.field)
      .filter((f) => f !== "effective_from_date" && f !== "effective_to_date"),
  };
}

/** Every version of a key (details, oldest first) with its status and its step from the last. */
export function buildVersionsReport(
  key: string,
  details: readonly PolicyDetail[],
  today: string,
  revisions: ReadonlyMap<string, CmsRevisionNote> = new Map(),
  retiresOn: string | null = null,
): VersionsReport {
  return {
    key,
    versions: details.map((d, i) => ({
      policy_id: d.policy_id,
      policy_number: d.policy_number,
      title: d.title,
      effective_from_date: d.effective_from_date,
      effective_to_date: d.effective_to_date,
      status: versionStatus(d, today),
      changes: i === 0 ? null : summarizeStep(diffPolicies(details[i - 1]!, d)),
      ...(revisions.has(d.policy_id) ? { cms_revision: revisions.get(d.policy_id)! } : {}),
      ...(retiresOn && i === details.length - 1 ? { cms_retires_on: retiresOn } : {}),
    })),
  };
}

/** A step in words: `+2 codes, -1 code, criteria, +3 scopes` (`first version` for the first). */
export function describeStep(s: StepSummary | null): string {
  if (!s) return "first version";
  const parts: string[] = [];
  const n = (count: number, word: string, sign: string) =>
    count ? `${sign}${count} ${word}${count === 1 ? "" : "s"}` : "";
  parts.push(
    n(s.codes_added, "code", "+"),
    n(s.codes_removed, "code", "-"),
    n(s.codes_changed, "code", "~"),
    n(s.scopes_gained, "scope", "+"),
    n(s.scopes_lost, "scope", "-"),
    s.criteria_changed ? "criteria" : "",
    ...s.fields,
  );
  const text = parts.filter(Boolean).join(", ");
  return text || "dates only";
}

/** CSV/ndjson rows: one per version, the step flattened. */
export function flattenVersions(r: VersionsReport): Array<Record<string, unknown>> {
  return r.versions.map(({ changes, cms_revision, ...v }) => ({
    ...v,
    ...(cms_revision
      ? {
          cms_revision_date: cms_revision.revision_date,
          cms_reason: cms_revision.reason ?? cms_revision.explanation,
        }
      : {}),
    // null, as in --json: the first version has no previous one (`[]` would read "no changes").
    changes: changes ? changes.kinds : null,
    summary: describeStep(changes),
  }));
}
