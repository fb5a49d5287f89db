import type { CodeReference, CodeRefFilter, CodeSystem } from "../contract/index.js";
import type { Lookup, PolicyRecord } from "./db.js";

/** Rule Filter 5: trimmed, upper case, and for ICD-10-CM without dots. */
export function normaliseCode(system: CodeSystem, code: string): string {
  const upper = code.trim().toUpperCase();
  return system === "ICD10CM" ? upper.replaceAll(".", "") : upper;
}

/** The key of a code in the index and the catalogue. */
export function makeCodeKey(system: CodeSystem, code: string): string {
  return `${system}:${normaliseCode(system, code)}`;
}

/** Keys of every code a ref names, in the order given. */
export function listRefKeys(ref: CodeReference): string[] {
  return ref.codes.map((c) => makeCodeKey(ref.code_system, c));
}

/**
 * Rule Filter 5: one ref matches a version with a link of its system, one of its codes and, if
 * given, one of its relationships. A given empty list holds none, so it matches nothing (read
 * literally, like `payer_ids: []`).
 */
export function matchesCodeRef(version: PolicyRecord, ref: CodeReference): boolean {
  const keys = new Set(listRefKeys(ref));
  const rels = ref.relationship ?? null;
  return version.codes.some(
    (c) => keys.has(c.key) && (rels === null || rels.includes(c.relationship)),
  );
}

/** Rule Filter 5: `any` needs one ref to match, `all` every ref. */
export function matchesCodeRefs(version: PolicyRecord, filter: CodeRefFilter): boolean {
  const test = (ref: CodeReference) => matchesCodeRef(version, ref);
  return (filter.match ?? "any") === "all" ? filter.refs.every(test) : filter.refs.some(test);
}

/** Indexes (into `Db.policies`) that can match the refs, from the code index; a superset. */
export function findCodeCandidates(
  byCode: Lookup<string, readonly number[]>,
  filter: CodeRefFilter,
): number[] {
  const perRef = filter.refs.map((ref) => {
    const set = new Set<number>();
    for (const key of listRefKeys(ref)) for (const i of byCode.get(key) ?? []) set.add(i);
    return set;
  });
  let result: Set<number>;
  if ((filter.match ?? "any") === "all") {
    perRef.sort((a, b) => a.size - b.size);
    result = new Set([...(perRef[0] ?? [])].filter((i) => perRef.every((s) => s.has(i))));
  } else {
    result = new Set(perRef.flatMap((s) => [...s]));
  }
  return [...result].sort((a, b) => a - b);
}

/**
 * Rule Ordering: the first `max` distinct codes the refs name, in the order given, as catalogue
 * keys (for ranking). A code named twice counts once.
 */
export function pickFirstFilteredCodeKeys(filter: CodeRefFilter, max = 20): string[] {
  return [...new Set(filter.refs.flatMap(listRefKeys))].slice(0, max);
}
