import type { Applicability, CodeReference, Policy, Relationship } from "../contract/index.js";
import { makeCodeKey } from "../domain/codes.js";
import { compareCodePoints } from "../domain/compare.js";
import { formatScopes, pairScopes, type PayerScopes } from "../domain/scopes.js";
import { versionStatus, type VersionStatus } from "../domain/status.js";

/** One policy under one relationship in `coverage code`. */
export interface CodePolicyRow {
  policy_id: string;
  policy_number: string;
  title: string;
  payer_ids: string[];
  payer_names: string[];
  /** `PAYER_ID lob STATE;...` (cli.md Output), each scope with its own payer. */
  scopes: string;
  /** Each payer with its own scopes in words, in the order the view shows them. */
  payer_scopes: PayerScopes[];
  /** The applicability items as the API gave them. */
  applicability: Applicability[];
  categories: Array<string | null>;
  effective_from_date: string;
  effective_to_date: string | null;
  status: VersionStatus;
}

/** `coverage code --json`: the code, its description, and its policies by relationship. */
export interface CodeReport {
  code_system: string;
  code: string;
  description: string | null;
  effective_on: string | null;
  groups: Array<{ relationship: Relationship; policies: CodePolicyRow[] }>;
}

const RELATIONSHIPS: Relationship[] = ["COVERS", "DOES_NOT_COVER", "REFERENCES"];

/** The description of a code from the code groups that carry descriptions, else null. */
export function findDescription(items: readonly Policy[], ref: CodeReference): string | null {
  const key = makeCodeKey(ref.code_system, ref.codes[0] ?? "");
  for (const p of items)
    for (const g of p.code_groups ?? []) {
      if (!g.descriptions) continue;
      const i = g.codes.findIndex((c) => makeCodeKey(g.code_system, c) === key);
      if (i >= 0 && g.descriptions[i]) return g.descriptions[i] ?? null;
    }
  return null;
}

/** Payer ids and names of a policy's applicability, each payer once, sorted by name. */
export function listPayers(p: Policy): { ids: string[]; names: string[] } {
  const byId = new Map<string, string>();
  for (const a of p.applicability ?? [])
    a.payer_ids.forEach((id, i) => byId.set(id, a.payer_names[i] ?? id));
  const sorted = [...byId].sort(
    (a, b) =>
      compareCodePoints(a[1].toLowerCase(), b[1].toLowerCase()) || compareCodePoints(a[0], b[0]),
  );
  return { ids: sorted.map(([id]) => id), names: sorted.map(([, n]) => n) };
}

/**
 * Groups the policies that list a code (filter results with applicability and code groups) by
 * the relationship they give it: covers, does not cover, references. A policy listing the code
 * under two relationships appears in both groups.
 */
export function buildCodeReport(
  items: readonly Policy[],
  ref: CodeReference,
  today: string,
  effectiveOn: string | null,
): CodeReport {
  const key = makeCodeKey(ref.code_system, ref.codes[0] ?? "");
  const groups = RELATIONSHIPS.map((relationship) => {
    const policies: CodePolicyRow[] = [];
    for (const p of items) {
      const hits = (p.code_groups ?? []).filter(
        (g) =>
          g.relationship === relationship &&
          g.codes.some((c) => makeCodeKey(g.code_system, c) === key),
      );
      if (hits.length === 0) continue;
      const payers = listPayers(p);
      policies.push({
        policy_id: p.policy_id,
        policy_number: p.policy_number,
        title: p.title,
        payer_ids: payers.ids,
        payer_names: payers.names,
        scopes: formatScopes(p.applicability ?? []),
        payer_scopes: pairScopes(p.applicability ?? []),
        applicability: p.applicability ?? [],
        categories: [...new Set(hits.map((g) => g.category))],
        effective_from_date: p.effective_from_date,
        effective_to_date: p.effective_to_date,
        status: versionStatus(p, today),
      });
    }
    policies.sort(
      (a, b) =>
        compareCodePoints(
          (a.payer_names[0] ?? "").toLowerCase(),
          (b.payer_names[0] ?? "").toLowerCase(),
        ) || compareCodePoints(a.policy_id, b.policy_id),
    );
    return { relationship, policies };
  });
  return {
    code_system: ref.code_system,
    code: ref.codes[0] ?? "",
    description: findDescription(items, ref),
    effective_on: effectiveOn,
    groups,
  };
}

/** CSV/ndjson rows of a code report: one per policy and relationship. */
export function flattenCodeReport(report: CodeReport): Array<Record<string, unknown>> {
  return report.groups.flatMap((g) =>
    g.policies.map(({ payer_scopes: _, applicability: __, ...p }) => ({
      relationship: g.relationship,
      ...p,
    })),
  );
}
