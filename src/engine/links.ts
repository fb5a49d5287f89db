import type { PolicyFilter } from "../contract/index.js";
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
  if (window) return version.links.filter((l) => overlapsWindow(l.from, l.to, window));
  if (filter?.retired === true) return version.links;
  return version.links.filter((l) => isCurrent(l.to, today));
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

/** Rule Filter 4: payer, LOB, LOB id and state filters are satisfied by one and the same link. */
export function matchesScope(links: readonly LinkRecord[], filter: PolicyFilter): boolean {
  const { payer_ids, lobs, lob_ids, states } = filter;
  return links.some(
    ({ lob }) =>
      (!payer_ids || payer_ids.includes(lob.payer_id)) &&
      (!lobs || lobs.includes(lob.lob)) &&
      (!lob_ids || lob_ids.some((v) => matchesLobId(v, lob))) &&
      (!states || lob.state === null || states.includes(lob.state as never)),
  );
}
