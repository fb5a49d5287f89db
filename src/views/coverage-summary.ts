import type {
  Applicability,
  CodeGroup,
  CodeReference,
  CodeSystem,
  Relationship,
} from "../contract/index.js";
import { LobCategory, LOB_CATEGORIES } from "../contract/index.js";
import { normaliseCode, normalisesTo } from "../domain/codes.js";

/** What a policy says of the codes an analyst asked about. */
export type Verdict = "covers" | "does not cover" | "mentions" | "mixed" | "none";

const VERDICT_OF: Record<Relationship, Verdict> = {
  COVERS: "covers",
  DOES_NOT_COVER: "does not cover",
  REFERENCES: "mentions",
};

/** The relationships a policy's code groups give the asked codes (normalised as rule Filter 5). */
export function listRelationships(groups: CodeGroup[], refs: CodeReference[]): Relationship[] {
  // The asked codes by system, normalised once, with their first characters; each group's
  // codes are tested in place.
  const asked = new Map<CodeSystem, { keys: string[]; firsts: Set<number> }>();
  for (const r of refs) {
    let entry = asked.get(r.code_system);
    if (!entry) asked.set(r.code_system, (entry = { keys: [], firsts: new Set() }));
    for (const c of r.codes) {
      const key = normaliseCode(r.code_system, c);
      entry.keys.push(key);
      entry.firsts.add(key.charCodeAt(0));
    }
  }
  const found = new Set<Relationship>();
  for (const g of groups) {
    const entry = asked.get(g.code_system);
    if (!entry || found.has(g.relationship)) continue;
    for (const c of g.codes) {
      // A code that starts with a letter or digit normalises to a key that starts with it in
      // upper case: most codes of a group are told apart by that one comparison.
      const f = c.charCodeAt(0);
      const letter = f >= 97 && f <= 122 ? f - 32 : f;
      if (((f >= 48 && f <= 57) || (letter >= 65 && letter <= 90)) && !entry.firsts.has(letter))
        continue;
      if (entry.keys.some((k) => normalisesTo(g.code_system, c, k))) {
        found.add(g.relationship);
        break;
      }
    }
  }
  return [...found];
}

/**
 * One word for what a policy says of the asked codes: a single relationship names it, several
 * are `mixed`, none is `none`.
 */
export function summarizeVerdict(groups: CodeGroup[], refs: CodeReference[]): Verdict {
  const rels = listRelationships(groups, refs);
  if (rels.length === 0) return "none";
  return rels.length === 1 ? VERDICT_OF[rels[0]!] : "mixed";
}

/** The distinct payer names (or ids) of an applicability list, in the order met. */
export function listPayers(
  items: Pick<Applicability, "payer_ids" | "payer_names">[],
  key: "payer_ids" | "payer_names" = "payer_names",
): string[] {
  return [...new Set(items.flatMap((item) => item[key]))];
}

/** The distinct LOB categories of an applicability list, in the spec's order. */
export function listLobs(items: Pick<Applicability, "lobs">[]): LobCategory[] {
  const order = LOB_CATEGORIES;
  const found = new Set(items.flatMap((item) => item.lobs));
  return order.filter((lob) => found.has(lob));
}

/** The distinct states of an applicability list (`nationwide` for a scope without one). */
export function listStates(items: Pick<Applicability, "state">[]): string[] {
  return [...new Set(items.map((item) => item.state ?? "nationwide"))];
}

/** One applicability item in a line: `Humana · medicare_advantage · nationwide`. */
export function describeApplicability(
  item: Pick<Applicability, "payer_names" | "lobs" | "state">,
): string {
  return `${item.payer_names.join(", ") || "-"} · ${item.lobs.join(", ") || "-"} · ${item.state ?? "nationwide"}`;
}

/** One code group in a line: `covers CPT 97110 97112`. */
export function describeCodeGroup(
  group: Pick<CodeGroup, "relationship" | "code_system" | "codes">,
): string {
  return `${VERDICT_OF[group.relationship]} ${group.code_system} ${group.codes.join(" ")}`;
}
