import {
  LobCategory,
  type Applicability,
  type CodeGroup,
  type Policy,
  CODE_SYSTEMS,
  LOB_CATEGORIES,
  RELATIONSHIPS,
} from "../contract/index.js";
import { compareCodePoints } from "./compare.js";
import type { CodeLinkRecord, Db, LinkRecord, PolicyRecord } from "./db.js";

const LOB_ORDER = new Map(LOB_CATEGORIES.map((v, i) => [v, i]));
const SYSTEM_ORDER = new Map(CODE_SYSTEMS.map((v, i) => [v, i]));
const REL_ORDER = new Map(RELATIONSHIPS.map((v, i) => [v, i]));

/**
 * Rule Shapes: per state, each payer's set of LOB categories; payers with the same state and
 * set share one item. Nationwide first, then by state, then by first payer id.
 */
export function buildApplicability(links: readonly LinkRecord[]): Applicability[] {
  const byState = new Map<string | null, Map<string, { name: string; lobs: Set<LobCategory> }>>();
  for (const { lob } of links) {
    let payers = byState.get(lob.state);
    if (!payers) byState.set(lob.state, (payers = new Map()));
    let entry = payers.get(lob.payer_id);
    if (!entry) payers.set(lob.payer_id, (entry = { name: lob.payer_name, lobs: new Set() }));
    entry.lobs.add(lob.lob);
  }
  const items: Applicability[] = [];
  for (const [state, payers] of byState) {
    const groups = new Map<string, Applicability>();
    for (const [payerId, { name, lobs }] of payers) {
      const sorted = [...lobs].sort((a, b) => (LOB_ORDER.get(a) ?? 0) - (LOB_ORDER.get(b) ?? 0));
      const key = sorted.join(",");
      const group = groups.get(key);
      if (group) {
        group.payer_ids.push(payerId);
        group.payer_names.push(name);
      } else groups.set(key, { payer_ids: [payerId], payer_names: [name], lobs: sorted, state });
    }
    for (const g of groups.values()) {
      g.payer_ids.sort(compareCodePoints);
      g.payer_names.sort(compareCodePoints);
      items.push(g);
    }
  }
  return items.sort(
    (a, b) =>
      (a.state === null ? -1 : 0) - (b.state === null ? -1 : 0) ||
      compareCodePoints(a.state ?? "", b.state ?? "") ||
      compareCodePoints(a.payer_ids[0] ?? "", b.payer_ids[0] ?? ""),
  );
}

/**
 * The descriptions a page's code groups can show: every code key of these versions, one read
 * (none for a version whose store keeps its groups made).
 */
export function readDescriptions(
  db: Db,
  versions: readonly PolicyRecord[],
): ReadonlyMap<string, string> {
  const keys: string[] = [];
  for (const v of versions) if (!v.codeGroups) for (const c of v.codes) keys.push(c.key);
  return db.catalogue.getMany(keys);
}

/**
 * A version's code groups: those its store made when it was built (with groupCodeLinks, from
 * the same catalogue), else made now. `descriptions` holds those of the version's codes
 * (readDescriptions; read here when absent).
 */
export function buildCodeGroups(
  db: Db,
  version: PolicyRecord,
  descriptions?: ReadonlyMap<string, string>,
): CodeGroup[] {
  return (
    version.codeGroups ??
    groupCodeLinks(version.codes, descriptions ?? readDescriptions(db, [version]))
  );
}

/**
 * Rule Shapes: one group per (system, relationship, category), ordered by system, relationship,
 * category (null first); codes in dataset order; descriptions only when all are known.
 */
export function groupCodeLinks(
  codes: readonly CodeLinkRecord[],
  descriptions: ReadonlyMap<string, string>,
): CodeGroup[] {
  const groups = new Map<string, { group: CodeGroup; keys: string[] }>();
  for (const c of codes) {
    // System and relationship are enum words (no NUL); a null category adds no third part.
    const id =
      c.category === null
        ? `${c.code_system}\0${c.relationship}`
        : `${c.code_system}\0${c.relationship}\0${c.category}`;
    let entry = groups.get(id);
    if (!entry) {
      entry = {
        group: {
          code_system: c.code_system,
          relationship: c.relationship,
          category: c.category,
          codes: [],
        },
        keys: [],
      };
      groups.set(id, entry);
    }
    entry.group.codes.push(c.code);
    entry.keys.push(c.key);
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        (SYSTEM_ORDER.get(a.group.code_system) ?? 0) -
          (SYSTEM_ORDER.get(b.group.code_system) ?? 0) ||
        (REL_ORDER.get(a.group.relationship) ?? 0) - (REL_ORDER.get(b.group.relationship) ?? 0) ||
        compareCategory(a.group.category, b.group.category),
    )
    .map(({ group, keys }) => {
      const known = keys.map((k) => descriptions.get(k));
      return known.every((d): d is string => d !== undefined)
        ? { ...group, descriptions: known }
        : group;
    });
}

function compareCategory(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return compareCodePoints(a, b);
}

/** The list fields of a version, in the spec's order. */
export function toPolicyItem(
  version: PolicyRecord,
  extra: {
    score: number | null;
    applicability: Applicability[] | null;
    code_groups: CodeGroup[] | null;
  },
): Policy {
  return {
    policy_id: version.policy_id,
    policy_number: version.policy_number,
    title: version.title,
    effective_from_date: version.effective_from_date,
    effective_to_date: version.effective_to_date,
    file_url: version.file_url,
    file_type: version.file_type,
    listing_url: version.listing_url,
    summary: version.summary,
    score: extra.score,
    applicability: extra.applicability,
    code_groups: extra.code_groups,
  };
}
