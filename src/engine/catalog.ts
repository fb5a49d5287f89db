import type { Envelope, Lob, LobsQuery, Payer, PayersQuery } from "../contract/index.js";
import { compareCaseInsensitive, compareCodePoints } from "./compare.js";
import type { Db } from "./db.js";
import { slicePage } from "./paginate.js";

/**
 * Rule Payers: payers with a LOB linked to a version, ever (narrowed to those LOB categories),
 * ordered by display name case-insensitively, then id.
 */
export function listPayers(db: Db, query: PayersQuery): Envelope<Payer> {
  const linked = new Set<string>();
  if (db.index) {
    for (const id of db.index.listLinkedLobIds()) {
      const lob = db.lobById.get(id);
      if (lob && (!query.lobs || query.lobs.includes(lob.lob))) linked.add(lob.payer_id);
    }
  } else {
    for (const v of db.policies)
      for (const { lob } of v.links)
        if (!query.lobs || query.lobs.includes(lob.lob)) linked.add(lob.payer_id);
  }
  const payers = [...db.payers.values()]
    .filter((p) => linked.has(p.payer_id))
    .sort(
      (a, b) =>
        compareCaseInsensitive(a.display_name, b.display_name) ||
        compareCodePoints(a.payer_id, b.payer_id),
    )
    .map((p) => ({ payer_id: p.payer_id, display_name: p.display_name }));
  return slicePage(payers, query.limit, query.offset);
}

/** Rule LOBs: every LOB, filtered by category, payer and exact state; `state` left out when nationwide. */
export function listLobs(db: Db, query: LobsQuery): Envelope<Lob> {
  const lobs = db.lobs
    .filter(
      (l) =>
        (!query.lobs || query.lobs.includes(l.lob)) &&
        (!query.payer_ids || query.payer_ids.includes(l.payer_id)) &&
        (!query.states || (l.state !== null && query.states.includes(l.state as never))),
    )
    .map(({ state, ...rest }) => (state === null ? rest : { ...rest, state }));
  return slicePage(lobs, query.limit, query.offset);
}
