import {
  catalogueOf,
  type CodeLinkRecord,
  type Db,
  type LinkRecord,
  type LobRecord,
  type PolicyRecord,
} from "../engine/db.js";

/**
 * The bundled sample as the engine reads it, written by the build (build/index-sample.mjs):
 * the dataset checked, its versions in `policy_id` order with their series and code keys, the
 * code index and the catalogue, so a start reads them without checking, normalising or
 * sorting anything again. It stands for the file whose size it records, and only for it.
 */
export interface PrebuiltIndex {
  format: "coverage-prebuilt-index";
  version: 1;
  /** The size in bytes of the dataset file it was made from (a changed file is loaded as usual). */
  sourceSize: number;
  asOf: string | null;
  payers: Array<{ payer_id: string; display_name: string }>;
  /** In `lob_id` order, as the engine keeps them. */
  lobs: LobRecord[];
  /** In `policy_id` order; links name their LOB by its position in `lobs`. */
  policies: PrebuiltPolicy[];
  /** Each code key and the positions (ascending) of the versions linking it. */
  byCode: Array<[string, number[]]>;
  catalogue: Array<[string, string]>;
}

type PrebuiltPolicy = Omit<PolicyRecord, "links" | "codeGroups"> & {
  links: Array<[number, string, string | null]>;
};

const FORMAT = "coverage-prebuilt-index";

/** The engine's indexes of a dataset (indexDataset's Db) in the prebuilt form, for the build. */
export function toPrebuiltIndex(db: Db, sourceSize: number): PrebuiltIndex {
  const lobPosition = new Map(db.lobs.map((lob, i) => [lob.lob_id, i]));
  const catalogue = db.catalogue.getMany([]);
  return {
    format: FORMAT,
    version: 1,
    sourceSize,
    asOf: db.asOf,
    payers: [...db.payers.values()],
    lobs: db.lobs,
    policies: db.policies.map((p) => ({
      ...versionFields(p),
      links: p.links.map((l) => [lobPosition.get(l.lob.lob_id)!, l.from, l.to]),
    })),
    byCode: [...iterate(db.byCode)],
    catalogue: [...catalogue],
  };
}

/** A version's fields as the engine reads them (a record's getters included), links apart. */
export function versionFields(p: PolicyRecord): Omit<PrebuiltPolicy, "links"> {
  return {
    policy_id: p.policy_id,
    policy_number: p.policy_number,
    title: p.title,
    effective_from_date: p.effective_from_date,
    effective_to_date: p.effective_to_date,
    file_url: p.file_url,
    file_type: p.file_type,
    listing_url: p.listing_url,
    summary: p.summary,
    criteria_text: p.criteria_text,
    files: p.files,
    series: p.series,
    codes: p.codes,
  };
}

function* iterate(lookup: Db["byCode"]): Iterable<[string, number[]]> {
  // The in-memory store's code index is a Map (a snapshot's is not, and is never prebuilt).
  for (const [key, positions] of lookup as ReadonlyMap<string, readonly number[]>)
    yield [key, [...positions]];
}

/**
 * The Db of a prebuilt index, or undefined when `raw` is not one for a file of `sourceSize`
 * bytes (then the dataset file is loaded, checked and indexed as any other).
 */
export function openPrebuiltIndex(raw: unknown, sourceSize: number): Db | undefined {
  const index = raw as Partial<PrebuiltIndex> | null;
  if (index?.format !== FORMAT || index.version !== 1 || index.sourceSize !== sourceSize)
    return undefined;
  const { lobs = [], payers = [], byCode = [], catalogue: described = [] } = index;
  const policies: PolicyRecord[] = (index.policies ?? []).map((p) => ({
    ...p,
    links: p.links.map(([lob, from, to]): LinkRecord => ({ lob: lobs[lob]!, from, to })),
    codes: p.codes as CodeLinkRecord[],
  }));
  const bySeries = new Map<string, PolicyRecord[]>();
  for (const p of policies) {
    const series = bySeries.get(p.series);
    if (series) series.push(p);
    else bySeries.set(p.series, [p]);
  }
  return {
    asOf: index.asOf ?? null,
    payers: new Map(payers.map((p) => [p.payer_id, p])),
    lobs,
    lobById: new Map(lobs.map((l) => [l.lob_id, l])),
    policies,
    byId: new Map(policies.map((p) => [p.policy_id, p])),
    byCode: new Map(byCode),
    bySeries,
    catalogue: catalogueOf(new Map(described)),
  };
}
