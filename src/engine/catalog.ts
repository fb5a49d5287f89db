import type {
  Envelope,
  Lob,
  LobCategory,
  LobsQuery,
  Payer,
  PayersQuery,
} from "../contract/index.js";
import { compareCaseInsensitive, compareCodePoints } from "./compare.js";
import type { Db } from "./db.js";
import { slicePage } from "./paginate.js";

// Per db, the LOB categories each payer has linked to some version, ever: a payers request then
// costs the payers, not every link of the catalogue (a million in a full one).
const linkedCategories = new WeakMap<Db, Map<string, Set<LobCategory>>>();

function findLinkedCategories(db: Db): Map<string, Set<LobCategory>> {
  let linked = linkedCategories.get(db);
  if (!linked) {
    linked = new Map();
    const add = ({ payer_id, lob }: { payer_id: string; lob: LobCategory }) => {
      const categories = linked!.get(payer_id);
      if (categories) categories.add(lob);
      else linked!.set(payer_id, new Set([lob]));
    };
    // A store on disk knows its linked LOBs from an index, without reading every version.
    if (db.index) {
      for (const id of db.index.listLinkedLobIds()) {
        const lob = db.lobById.get(id);
        if (lob) add(lob);
      }
    } else for (const v of db.policies) for (const { lob } of v.links) add(lob);
    linkedCategories.set(db, linked);
  }
  return linked;
}

/**
 * Rule Payers: payers with a LOB linked to a version, ever (narrowed to those LOB categories),
 * ordered by display name case-insensitively, then id.
 */
export function listPayers(db: Db, query: PayersQuery): Envelope<Payer> {
  const linked = findLinkedCategories(db);
  const wanted = query.lobs ? new Set(query.lobs) : null;
  const payers = [...db.payers.values()]
    .filter((p) => {
      const categories = linked.get(p.payer_id);
      if (!categories) return false;
      if (!wanted) return true;
      for (const c of categories) if (wanted.has(c)) return true;
      return false;
    })
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
  const categories = query.lobs ? new Set<string>(query.lobs) : null;
  const payerIds = query.payer_ids ? new Set(query.payer_ids) : null;
  const states = query.states ? new Set<string>(query.states) : null;
  const lobs = db.lobs
    .filter(
      (l) =>
        (!categories || categories.has(l.lob)) &&
        (!payerIds || payerIds.has(l.payer_id)) &&
        (!states || (l.state !== null && states.has(l.state))),
    )
    .map(({ state, ...rest }) => (state === null ? rest : { ...rest, state }));
  return slicePage(lobs, query.limit, query.offset);
}
