import { parseDataset } from "../../src/dataset/load.js";
import { indexDataset, type Db } from "../../src/engine/db.js";

type Json = Record<string, unknown>;

/** A policy version with every required field, overridable per test. */
export function policy(id: string, extra: Json = {}): Json {
  const from = id.slice(id.lastIndexOf("/") + 1);
  return {
    policy_id: id,
    policy_number: id.split("/")[1] ?? id,
    title: `Title of ${id}`,
    effective_from_date: from,
    effective_to_date: null,
    file_url: `https://example.org/${id}`,
    file_type: "pdf",
    listing_url: "https://example.org/list",
    summary: null,
    criteria_text: null,
    applicability: [],
    codes: [],
    ...extra,
  };
}

/** Indexes a small dataset written inline (checked like a real one). */
export function buildDb(parts: {
  payers?: Json[];
  lobs?: Json[];
  codes?: Json[];
  policies: Json[];
  as_of?: string;
}): Db {
  const raw = {
    format: "coverage-dataset",
    version: 1,
    as_of: parts.as_of ?? "2026-06-01",
    payers: parts.payers ?? [
      { payer_id: "P1", display_name: "alpha" },
      { payer_id: "P2", display_name: "Beta" },
      { payer_id: "P3", display_name: "ALPHA" },
    ],
    lobs: parts.lobs ?? [
      { lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial", state: null },
      { lob_id: "P1_medicaid_CA", payer_id: "P1", lob: "medicaid", state: "CA" },
      { lob_id: "P2_commercial_CA", payer_id: "P2", lob: "commercial", state: "CA" },
      { lob_id: "P2_medicaid_CA", payer_id: "P2", lob: "medicaid", state: "CA" },
      {
        lob_id: "P3_medicare_advantage_TX",
        payer_id: "P3",
        lob: "medicare_advantage",
        state: "TX",
      },
    ],
    codes: parts.codes ?? [],
    policies: parts.policies,
  };
  return indexDataset(parseDataset(raw, "inline"));
}
