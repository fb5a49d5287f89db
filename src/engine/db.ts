import type { CodeSystem, FileType, LobCategory, Relationship } from "../contract/index.js";
import type { Dataset } from "../dataset/schema.js";
import { compareCodePoints } from "./compare.js";
import { codeKey } from "./codes.js";

export interface LobRecord {
  lob_id: string;
  payer_id: string;
  payer_name: string;
  lob: LobCategory;
  state: string | null;
}

export interface LinkRecord {
  lob: LobRecord;
  from: string;
  to: string | null;
}

export interface CodeLinkRecord {
  code_system: CodeSystem;
  code: string;
  /** `code_system:normalised code`, the key of the code index and the catalogue. */
  key: string;
  relationship: Relationship;
  category: string | null;
}

export interface PolicyRecord {
  policy_id: string;
  policy_number: string;
  title: string;
  effective_from_date: string;
  effective_to_date: string | null;
  file_url: string;
  file_type: FileType;
  listing_url: string;
  summary: string | null;
  criteria_text: string | null;
  files: { display?: string | undefined; text?: string | undefined };
  links: LinkRecord[];
  codes: CodeLinkRecord[];
  /** Everything before the last `/` of the id: what the versions of one policy share. */
  series: string;
}

/** The dataset, indexed once per load for the engine's queries. */
export interface Db {
  asOf: string | null;
  payers: Map<string, { payer_id: string; display_name: string }>;
  lobs: LobRecord[];
  lobById: Map<string, LobRecord>;
  /** Versions in `policy_id` code-point order; indexes below point into this array. */
  policies: PolicyRecord[];
  byId: Map<string, PolicyRecord>;
  byCode: Map<string, number[]>;
  bySeries: Map<string, PolicyRecord[]>;
  catalogue: Map<string, string>;
}

/** Builds the engine's indexes (by id, normalised code, policy series) from a checked dataset. */
export function indexDataset(dataset: Dataset): Db {
  const payers = new Map(dataset.payers.map((p) => [p.payer_id, p]));
  const lobs: LobRecord[] = dataset.lobs
    .map((l) => ({
      lob_id: l.lob_id,
      payer_id: l.payer_id,
      payer_name: payers.get(l.payer_id)?.display_name ?? l.payer_id,
      lob: l.lob,
      state: l.state,
    }))
    .sort((a, b) => compareCodePoints(a.lob_id, b.lob_id));
  const lobById = new Map(lobs.map((l) => [l.lob_id, l]));
  const catalogue = new Map<string, string>();
  for (const c of dataset.codes) catalogue.set(codeKey(c.code_system, c.code), c.description);

  const policies: PolicyRecord[] = dataset.policies
    .map((p) => ({
      policy_id: p.policy_id,
      policy_number: p.policy_number,
      title: p.title,
      effective_from_date: p.effective_from_date,
      effective_to_date: p.effective_to_date,
      file_url: p.file_url,
      file_type: p.file_type,
      listing_url: p.listing_url,
      summary: p.summary,
      criteria_text: p.criteria_text ?? null,
      files: p.files ?? {},
      links: p.applicability.flatMap((a) => {
        const lob = lobById.get(a.lob_id);
        return lob ? [{ lob, from: a.from, to: a.to }] : [];
      }),
      codes: p.codes.map((c) => ({
        code_system: c.code_system,
        code: c.code,
        key: codeKey(c.code_system, c.code),
        relationship: c.relationship,
        category: c.category ?? null,
      })),
      series: p.policy_id.slice(0, Math.max(0, p.policy_id.lastIndexOf("/"))),
    }))
    .sort((a, b) => compareCodePoints(a.policy_id, b.policy_id));

  const byId = new Map<string, PolicyRecord>();
  const byCode = new Map<string, number[]>();
  const bySeries = new Map<string, PolicyRecord[]>();
  policies.forEach((p, index) => {
    byId.set(p.policy_id, p);
    for (const c of p.codes) {
      const list = byCode.get(c.key);
      if (!list) byCode.set(c.key, [index]);
      else if (list[list.length - 1] !== index) list.push(index);
    }
    const series = bySeries.get(p.series);
    if (series) series.push(p);
    else bySeries.set(p.series, [p]);
  });
  return {
    asOf: dataset.as_of ?? null,
    payers,
    lobs,
    lobById,
    policies,
    byId,
    byCode,
    bySeries,
    catalogue,
  };
}
