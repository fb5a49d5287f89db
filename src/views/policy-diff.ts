// The one module used (and the two it needs), not the package index that loads all 20.
import { createTwoFilesPatch } from "diff/lib/patch/create.js";
import type {
  CodeGroup,
  DetailApplicability,
  PolicyDetail,
  Relationship,
} from "../contract/index.js";
import { CodeSystem, LobCategory, CODE_SYSTEMS, LOB_CATEGORIES } from "../contract/index.js";
import { compareCodePoints } from "../domain/compare.js";
import { normaliseCode } from "../domain/codes.js";

/** How a version differs from its predecessor, in the words of `updates --changes`. */
export type ChangeKind =
  | "new"
  | "codes changed"
  | "criteria changed"
  | "applicability changed"
  | "metadata only"
  | "no changes";

/** One code as a version lists it: every relationship and category it has there. */
export interface CodeEntry {
  code_system: string;
  code: string;
  relationships: Relationship[];
  categories: Array<string | null>;
}

/** A code in both versions whose relationships or categories differ. */
export interface CodeChange {
  code_system: string;
  code: string;
  old: Pick<CodeEntry, "relationships" | "categories">;
  new: Pick<CodeEntry, "relationships" | "categories">;
}

/** One coverage scope: a payer's LOB category in a state (null: nationwide). */
export interface ScopeEntry {
  payer_id: string;
  payer_name: string;
  lob: string;
  state: string | null;
}

/** A field whose value differs between the versions. */
export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

/** The structured difference of two versions (`coverage diff --json`). */
/** CMS's revision record of a version (a pulled snapshot's `cms_revision`). */
export interface CmsRevisionNote {
  version: string;
  revision_date: string | null;
  reason: string | null;
  explanation: string | null;
}

export interface PolicyDiff {
  old_id: string;
  new_id: string;
  kinds: ChangeKind[];
  fields: FieldChange[];
  codes: { added: CodeEntry[]; removed: CodeEntry[]; changed: CodeChange[] };
  applicability: { gained: ScopeEntry[]; lost: ScopeEntry[] };
  criteria: { changed: boolean; patch: string | null };
  /** CMS's records of the two versions (revision date, reason), where a pulled snapshot has them. */
  cms_revision?: { old: CmsRevisionNote | null; new: CmsRevisionNote | null };
}

/** Fields compared as plain values, in the order shown. */
const FIELDS = [
  "title",
  "policy_number",
  "effective_from_date",
  "effective_to_date",
  "summary",
  "file_type",
  "file_url",
  "listing_url",
] as const;

const RELATIONSHIP_ORDER: Relationship[] = ["COVERS", "DOES_NOT_COVER", "REFERENCES"];

function systemRank(system: string): number {
  const i = CODE_SYSTEMS.indexOf(system as CodeSystem);
  return i < 0 ? CODE_SYSTEMS.length : i;
}

/** A version's codes by (system, normalised code), with their relationships and categories. */
export function indexCodes(groups: readonly CodeGroup[]): Map<string, CodeEntry> {
  const byKey = new Map<string, CodeEntry>();
  for (const g of groups)
    for (const raw of g.codes) {
      // Matched normalised (rule Filter 5), shown as the version writes it.
      const key = `${g.code_system}:${normaliseCode(g.code_system, raw)}`;
      let entry = byKey.get(key);
      if (!entry)
        byKey.set(
          key,
          (entry = {
            code_system: g.code_system,
            code: raw.trim(),
            relationships: [],
            categories: [],
          }),
        );
      if (!entry.relationships.includes(g.relationship)) entry.relationships.push(g.relationship);
      if (!entry.categories.includes(g.category)) entry.categories.push(g.category);
    }
  for (const e of byKey.values()) {
    e.relationships.sort((a, b) => RELATIONSHIP_ORDER.indexOf(a) - RELATIONSHIP_ORDER.indexOf(b));
    e.categories.sort((a, b) => compareCodePoints(a ?? "", b ?? ""));
  }
  return byKey;
}

function compareCodes(a: Pick<CodeEntry, "code_system" | "code">, b: typeof a): number {
  return systemRank(a.code_system) - systemRank(b.code_system) || compareCodePoints(a.code, b.code);
}

/** Codes added, removed, and kept with other relationships or categories. */
export function diffCodes(
  oldGroups: readonly CodeGroup[],
  newGroups: readonly CodeGroup[],
): PolicyDiff["codes"] {
  const before = indexCodes(oldGroups);
  const after = indexCodes(newGroups);
  const added = [...after].filter(([k]) => !before.has(k)).map(([, e]) => e);
  const removed = [...before].filter(([k]) => !after.has(k)).map(([, e]) => e);
  const changed: CodeChange[] = [];
  for (const [k, b] of before) {
    const a = after.get(k);
    if (!a) continue;
    const same =
      a.relationships.join() === b.relationships.join() &&
      JSON.stringify(a.categories) === JSON.stringify(b.categories);
    if (!same)
      changed.push({
        code_system: b.code_system,
        code: b.code,
        old: { relationships: b.relationships, categories: b.categories },
        new: { relationships: a.relationships, categories: a.categories },
      });
  }
  return {
    added: added.sort(compareCodes),
    removed: removed.sort(compareCodes),
    changed: changed.sort(compareCodes),
  };
}

/** Applicability items flattened to one entry per payer x LOB category x state. */
export function flattenScopes(items: readonly DetailApplicability[]): ScopeEntry[] {
  const out = new Map<string, ScopeEntry>();
  for (const item of items)
    item.payer_ids.forEach((payer_id, i) => {
      for (const lob of item.lobs) {
        const state = item.state ?? null;
        const entry = { payer_id, payer_name: item.payer_names[i] ?? payer_id, lob, state };
        out.set(JSON.stringify([payer_id, lob, state]), entry);
      }
    });
  const lobRank = (l: string) => LOB_CATEGORIES.indexOf(l as LobCategory);
  return [...out.values()].sort(
    (a, b) =>
      compareCodePoints(a.payer_id, b.payer_id) ||
      lobRank(a.lob) - lobRank(b.lob) ||
      (a.state === null ? -1 : 0) - (b.state === null ? -1 : 0) ||
      compareCodePoints(a.state ?? "", b.state ?? ""),
  );
}

/** Scopes the new version has and the old one had not, and the reverse. */
export function diffScopes(
  oldItems: readonly DetailApplicability[],
  newItems: readonly DetailApplicability[],
): PolicyDiff["applicability"] {
  const key = (s: ScopeEntry) => JSON.stringify([s.payer_id, s.lob, s.state]);
  const before = flattenScopes(oldItems);
  const after = flattenScopes(newItems);
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  return {
    gained: after.filter((s) => !had.has(key(s))),
    lost: before.filter((s) => !has.has(key(s))),
  };
}

/** The criteria as a unified diff (jsdiff), or null when they are the same. */
export function diffCriteria(
  oldId: string,
  newId: string,
  oldText: string | null,
  newText: string | null,
): PolicyDiff["criteria"] {
  if (oldText === newText) return { changed: false, patch: null };
  const withNewline = (t: string | null) => (t === null || t.endsWith("\n") ? (t ?? "") : `${t}\n`);
  const patch = createTwoFilesPatch(
    oldId,
    newId,
    withNewline(oldText),
    withNewline(newText),
    undefined,
    undefined,
    { context: 3 },
  );
  // jsdiff starts with a `===` rule; `git diff` and `patch` readers expect `---` first.
  return { changed: true, patch: patch.replace(/^(?:Index: .*\n)?=+\n/, "") };
}

/**
 * The kinds of change from `old` to `next`, in a fixed order; `metadata only` when only other
 * fields differ, `no changes` when nothing does (`diff X X`).
 */
export function classifyDiff(d: Omit<PolicyDiff, "kinds">): ChangeKind[] {
  const kinds: ChangeKind[] = [];
  const { codes, applicability } = d;
  if (codes.added.length || codes.removed.length || codes.changed.length)
    kinds.push("codes changed");
  if (d.criteria.changed) kinds.push("criteria changed");
  if (applicability.gained.length || applicability.lost.length) kinds.push("applicability changed");
  if (kinds.length) return kinds;
  return d.fields.length ? ["metadata only"] : ["no changes"];
}

/** What changed from one version (or any policy) to another. */
export function diffPolicies(old: PolicyDetail, next: PolicyDetail): PolicyDiff {
  const fields: FieldChange[] = [];
  for (const f of FIELDS)
    if ((old[f] ?? null) !== (next[f] ?? null))
      fields.push({ field: f, old: old[f] ?? null, new: next[f] ?? null });
  const partial = {
    old_id: old.policy_id,
    new_id: next.policy_id,
    fields,
    codes: diffCodes(old.code_groups, next.code_groups),
    applicability: diffScopes(old.applicability, next.applicability),
    criteria: diffCriteria(old.policy_id, next.policy_id, old.criteria_text, next.criteria_text),
  };
  return { ...partial, kinds: classifyDiff(partial) } as PolicyDiff;
}

/** `updates --changes`: `new` without a predecessor, else the kinds of the diff. */
export function classifyUpdate(
  previous: PolicyDetail | undefined,
  current: PolicyDetail,
): ChangeKind[] {
  return previous ? diffPolicies(previous, current).kinds : ["new"];
}
