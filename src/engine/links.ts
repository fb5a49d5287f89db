import type { LobCategory, PolicyFilter } from "../contract/index.js";
import type { LinkRecord, LobRecord, PolicyRecord } from "./db.js";
import { isCurrent, overlapsWindow } from "./time.js";

/**
 * Rule Filter 3: the applicability links that scope filters and `include_applicability` use:
 * windowed when a window is given, all-time for `retired: true`, else current as of today.
 */
export function selectLinks(
  version: PolicyRecord,
  filter: PolicyFilter | null | undefined,
  today: string,
): LinkRecord[] {
  const window = filter?.effective_date;
  if (!window && filter?.retired === true) return version.links;
  return version.links.filter((l) => isSelectedLink(l, filter, today));
}

/** Rule Filter 3 for one link (selectLinks keeps exactly the links this accepts). */
function isSelectedLink(
  link: LinkRecord,
  filter: PolicyFilter | null | undefined,
  today: string,
): boolean {
  const window = filter?.effective_date;
  if (window) return overlapsWindow(link.from, link.to, window);
  if (filter?.retired === true) return true;
  return isCurrent(link.to, today);
}

/** Rule Filter 4: a `lob_ids` value names a LOB exactly, or with a trailing `_` its nationwide LOB. */
export function matchesLobId(value: string, lob: LobRecord): boolean {
  if (value === lob.lob_id) return true;
  if (!value.endsWith("_") || lob.state !== null) return false;
  return lob.lob_id === `${value}US` || `${lob.payer_id}_${lob.lob}_` === value;
}

/** Whether any scope filter (payer, LOB, LOB id, state) is set. */
export function hasScopeFilter(filter: PolicyFilter | null | undefined): boolean {
  return Boolean(filter?.payer_ids || filter?.lobs || filter?.lob_ids || filter?.states);
}

/**
 * A request's scope filters as sets, made once per request: testing a link then costs a few
 * lookups whatever the lists' lengths (null = that filter not given).
 */
export interface CompiledScope {
  readonly payerIds: ReadonlySet<string> | null;
  readonly lobs: ReadonlySet<LobCategory> | null;
  /** Every `lob_ids` value (exact matches), and those ending in `_` (nationwide prefixes). */
  readonly lobIds: ReadonlySet<string> | null;
  readonly lobPrefixes: ReadonlySet<string>;
  readonly states: ReadonlySet<string> | null;
}

const asSet = <T>(list: readonly T[] | null | undefined): ReadonlySet<T> | null =>
  list ? new Set(list) : null;

/** Rule Filter 4, compiled: the scope lists of a filter as sets. */
export function compileScope(filter: PolicyFilter): CompiledScope {
  const { payer_ids, lobs, lob_ids, states } = filter;
  return {
    payerIds: asSet(payer_ids),
    lobs: asSet(lobs),
    lobIds: asSet(lob_ids),
    lobPrefixes: new Set((lob_ids ?? []).filter((v) => v.endsWith("_"))),
    states: asSet(states),
  };
}

/** matchesLobId over every value of a compiled `lob_ids` at once (two or three lookups). */
function matchesCompiledLobIds(scope: CompiledScope, lob: LobRecord): boolean {
  if (scope.lobIds === null || scope.lobIds.has(lob.lob_id)) return true;
  if (lob.state !== null || scope.lobPrefixes.size === 0) return false;
  return (
    (lob.lob_id.endsWith("US") && scope.lobPrefixes.has(lob.lob_id.slice(0, -2))) ||
    scope.lobPrefixes.has(`${lob.payer_id}_${lob.lob}_`)
  );
}

/** Rule Filter 4 over a compiled scope: one and the same link satisfies every scope filter. */
export function matchesCompiledScope(links: readonly LinkRecord[], scope: CompiledScope): boolean {
  return links.some(({ lob }) => matchesScopeLob(lob, scope));
}

/** Rule Filter 4 for one link's LOB. */
export function matchesScopeLob(lob: LobRecord, scope: CompiledScope): boolean {
  return (
    (scope.payerIds === null || scope.payerIds.has(lob.payer_id)) &&
    (scope.lobs === null || scope.lobs.has(lob.lob)) &&
    matchesCompiledLobIds(scope, lob) &&
    (scope.states === null || lob.state === null || scope.states.has(lob.state))
  );
}

/**
 * Rules Filter 3 and 4 together: matchesCompiledScope(selectLinks(...)) without the list (a
 * filter tests thousands of versions per request).
 */
export function matchesVersionScope(
  version: PolicyRecord,
  filter: PolicyFilter | null | undefined,
  scope: CompiledScope,
  today: string,
): boolean {
  for (const link of version.links)
    if (isSelectedLink(link, filter, today) && matchesScopeLob(link.lob, scope)) return true;
  return false;
}

/** Rule Filter 4: payer, LOB, LOB id and state filters are satisfied by one and the same link. */
export function matchesScope(links: readonly LinkRecord[], filter: PolicyFilter): boolean {
  return matchesCompiledScope(links, compileScope(filter));
}
