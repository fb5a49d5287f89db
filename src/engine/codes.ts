import type { CodeReference, CodeRefFilter, Relationship } from "../contract/index.js";
import { NO_BUDGET, type Budget } from "./budget.js";
import type { Lookup, PolicyRecord } from "./db.js";
import { makeCodeKey, normaliseCode, normalisesTo } from "../domain/codes.js";

// The code rules are shared by everyone (domain/); the engine's importers keep finding them here.
export { makeCodeKey, normaliseCode, normalisesTo };

/** Keys of every code a ref names, in the order given. */
export function listRefKeys(ref: CodeReference): string[] {
  return ref.codes.map((c) => makeCodeKey(ref.code_system, c));
}

// Relationships as bits, so a ref's list is one number and "one of them" one `&`.
const RELATIONSHIP_BIT: Record<Relationship, number> = {
  COVERS: 1,
  DOES_NOT_COVER: 2,
  REFERENCES: 4,
};
/** No `relationship` given: every relationship, including any the dataset adds later. */
const ANY_RELATIONSHIP = -1;
// A relationship outside the enum (a newer dataset) matches only a ref without a list.
const OTHER_RELATIONSHIP = 1 << 30;

function relationshipBit(relationship: Relationship): number {
  return RELATIONSHIP_BIT[relationship] ?? OTHER_RELATIONSHIP;
}

/** One ref of a request, made once per request: its distinct keys and its relationships. */
export interface CompiledCodeRef {
  /** Distinct keys in the order given. */
  readonly keys: readonly string[];
  readonly keySet: ReadonlySet<string>;
  /** The relationship list as bits; ANY_RELATIONSHIP when not given, 0 for a given `[]`. */
  readonly mask: number;
}

/**
 * A request's code refs, made once per request so that testing a version costs its own links,
 * not the request's size: `byKey` gives, for a key, the refs naming it with their relationships.
 */
export interface CompiledCodeRefs {
  readonly all: boolean;
  /** Distinct refs (a ref repeated verbatim counts once: it cannot change the answer). */
  readonly refs: readonly CompiledCodeRef[];
  /** Per key: the refs (indexes into `refs`) naming it and each one's relationship bits. */
  readonly byKey: ReadonlyMap<string, ReadonlyArray<{ ref: number; mask: number }>>;
  /** Per key, for `any`: the union of the relationship bits of the refs naming it. */
  readonly anyMask: ReadonlyMap<string, number>;
  /**
   * Per key, for `all`: the relationship bits with which a link of that key alone meets every
   * ref (a code every ref names): such a link settles a version without visiting the refs.
   */
  readonly coversAll: ReadonlyMap<string, number>;
  /** Keys every ref names (whatever the relationships): their versions are in every ref's. */
  readonly sharedKeys: ReadonlySet<string>;
}

const BITS = [...Object.values(RELATIONSHIP_BIT), OTHER_RELATIONSHIP];

/** Compiles one ref: its keys (normalised once) and relationship bits. */
export function compileCodeRef(ref: CodeReference): CompiledCodeRef {
  const keySet = new Set(listRefKeys(ref));
  const rels = ref.relationship ?? null;
  let mask = ANY_RELATIONSHIP;
  if (rels !== null) {
    mask = 0;
    for (const r of rels) mask |= relationshipBit(r);
  }
  return { keys: [...keySet], keySet, mask };
}

// Compiled per request object: the engine, the candidate step and a store may all ask.
const compiledRefs = new WeakMap<CodeRefFilter, CompiledCodeRefs>();

/** Rule Filter 5, compiled: every ref's keys and relationships, and the index by key. */
export function compileCodeRefs(filter: CodeRefFilter): CompiledCodeRefs {
  const known = compiledRefs.get(filter);
  if (known) return known;
  const refs: CompiledCodeRef[] = [];
  const seen = new Set<string>();
  for (const raw of filter.refs) {
    const ref = compileCodeRef(raw);
    const id = `${ref.mask}\n${ref.keys.join("\n")}`;
    if (seen.has(id)) continue;
    seen.add(id);
    refs.push(ref);
  }
  const byKey = new Map<string, { ref: number; mask: number }[]>();
  const anyMask = new Map<string, number>();
  refs.forEach((ref, i) => {
    for (const key of ref.keys) {
      const list = byKey.get(key);
      if (list) list.push({ ref: i, mask: ref.mask });
      else byKey.set(key, [{ ref: i, mask: ref.mask }]);
      anyMask.set(key, (anyMask.get(key) ?? 0) | ref.mask);
    }
  });
  const coversAll = new Map<string, number>();
  const sharedKeys = new Set<string>();
  for (const [key, naming] of byKey) {
    if (naming.length !== refs.length) continue;
    sharedKeys.add(key);
    let bits = 0;
    for (const bit of BITS) if (naming.every(({ mask }) => (mask & bit) !== 0)) bits |= bit;
    if (bits !== 0) coversAll.set(key, bits);
  }
  const compiled = {
    all: (filter.match ?? "any") === "all",
    refs,
    byKey,
    anyMask,
    coversAll,
    sharedKeys,
  };
  compiledRefs.set(filter, compiled);
  return compiled;
}

/** Rule Filter 5 for one compiled ref: a link of one of its keys with one of its relationships. */
export function matchesCompiledCodeRef(version: PolicyRecord, ref: CompiledCodeRef): boolean {
  return version.codes.some(
    (c) => (ref.mask & relationshipBit(c.relationship)) !== 0 && ref.keySet.has(c.key),
  );
}

// A filter's refs compiled, once per request: callers that hold the compiled form pass it.
const compiledOf = (refs: CodeRefFilter | CompiledCodeRefs): CompiledCodeRefs =>
  "sharedKeys" in refs ? refs : compileCodeRefs(refs);

/**
 * Whether every version findCodeCandidates returns passes Rule Filter 5: so when no ref lists
 * relationships, for the code index lists every version linking a key, whatever the link's
 * relationship (the candidates are then exactly the matches, and need no second test).
 */
export function isSettledByCandidates(filter: CodeRefFilter | CompiledCodeRefs): boolean {
  return compiledOf(filter).refs.every((ref) => ref.mask === ANY_RELATIONSHIP);
}

/**
 * Rule Filter 5 for compiled refs, in one walk over the version's links: `any` stops at the
 * first link some ref accepts; `all` marks the refs each link satisfies until every one is.
 */
export function matchesCompiledCodeRefs(
  version: PolicyRecord,
  compiled: CompiledCodeRefs,
): boolean {
  if (!compiled.all) {
    for (const c of version.codes) {
      const mask = compiled.anyMask.get(c.key);
      if (mask !== undefined && (mask & relationshipBit(c.relationship)) !== 0) return true;
    }
    return false;
  }
  for (const c of version.codes)
    if (((compiled.coversAll.get(c.key) ?? 0) & relationshipBit(c.relationship)) !== 0) return true;
  const need = compiled.refs.length;
  const met = new Set<number>();
  for (const c of version.codes) {
    const naming = compiled.byKey.get(c.key);
    if (naming === undefined) continue;
    const bit = relationshipBit(c.relationship);
    for (const { ref, mask } of naming) {
      if ((mask & bit) !== 0) met.add(ref);
    }
    if (met.size === need) return true;
  }
  return false;
}

/**
 * Rule Filter 5: one ref matches a version with a link of its system, one of its codes and, if
 * given, one of its relationships. A given empty list holds none, so it matches nothing (read
 * literally, like `payer_ids: []`).
 */
export function matchesCodeRef(version: PolicyRecord, ref: CodeReference): boolean {
  return matchesCompiledCodeRef(version, compileCodeRef(ref));
}

/** Rule Filter 5: `any` needs one ref to match, `all` every ref. */
export function matchesCodeRefs(version: PolicyRecord, filter: CodeRefFilter): boolean {
  return matchesCompiledCodeRefs(version, compileCodeRefs(filter));
}

/** The versions of `keys` in the code index. */
function collectVersions(
  byCode: Lookup<string, readonly number[]>,
  keys: Iterable<string>,
): Set<number> {
  const set = new Set<number>();
  for (const key of keys) for (const i of byCode.get(key) ?? []) set.add(i);
  return set;
}

/**
 * Indexes (into `Db.policies`) that can match the refs, from the code index; a superset. The
 * cost is the postings of the keys named (each key once), not keys x versions: `any` takes the
 * union; `all` starts from the ref with the shortest postings and keeps only the versions every
 * other ref's postings hold, stopping as soon as none is left.
 */
export function findCodeCandidates(
  byCode: Lookup<string, readonly number[]>,
  filter: CodeRefFilter | CompiledCodeRefs,
  budget: Budget = NO_BUDGET,
): number[] {
  const { all, refs: named, sharedKeys } = compiledOf(filter);
  // A ref whose relationship list is empty matches nothing: under `all` nothing can match.
  if (all && named.some((ref) => ref.mask === 0)) return [];
  const refs = named.filter((ref) => ref.mask !== 0);
  if (!all) {
    const seen = new Uint8Array(maxIndex(byCode, refs) + 1);
    const out: number[] = [];
    for (const ref of refs)
      for (const key of ref.keys) {
        budget.check();
        for (const i of byCode.get(key) ?? [])
          if (!seen[i]) {
            seen[i] = 1;
            out.push(i);
          }
      }
    return out.sort((a, b) => a - b);
  }
  // Each ref's versions are those of the keys every ref names (S) and those of its own other
  // keys, so their intersection is S's versions plus the intersection of the others': a code
  // named by every ref is read once, not once per ref.
  const sized = refs
    .map((ref) => {
      const own = ref.keys.filter((k) => !sharedKeys.has(k));
      return { own, size: own.reduce((n, k) => n + (byCode.get(k)?.length ?? 0), 0) };
    })
    .sort((a, b) => a.size - b.size);
  let result: Set<number> | undefined;
  for (const { own } of sized) {
    budget.check();
    const versions = collectVersions(byCode, own);
    if (result === undefined) result = versions;
    else for (const i of result) if (!versions.has(i)) result.delete(i);
    if (result.size === 0) break;
  }
  for (const i of collectVersions(byCode, sharedKeys)) (result ??= new Set()).add(i);
  return [...(result ?? [])].sort((a, b) => a - b);
}

// The highest version index a set of refs can reach (for a bitmap sized to it, not the db).
function maxIndex(
  byCode: Lookup<string, readonly number[]>,
  refs: readonly CompiledCodeRef[],
): number {
  let max = -1;
  for (const ref of refs)
    for (const key of ref.keys) {
      const list = byCode.get(key);
      // Each list is ascending: its last entry is its largest.
      if (list && list.length > 0) max = Math.max(max, list[list.length - 1] as number);
    }
  return max;
}

/**
 * Rule Ordering: the first `max` distinct codes the refs name, in the order given, as catalogue
 * keys (for ranking). A code named twice counts once. Stops once it has `max`.
 */
export function pickFirstFilteredCodeKeys(filter: CodeRefFilter, max = 20): string[] {
  const keys = new Set<string>();
  for (const ref of filter.refs)
    for (const code of ref.codes) {
      if (keys.size >= max) return [...keys];
      keys.add(makeCodeKey(ref.code_system, code));
    }
  return [...keys];
}
