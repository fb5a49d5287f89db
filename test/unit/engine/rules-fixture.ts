import type { FilterRequest, Policy } from "../../../src/contract/index.js";
import type { Db } from "../../../src/engine/db.js";
import { filterPolicies } from "../../../src/engine/filter.js";
import { buildDb, policy } from "../../helpers/build-db.js";

type Json = Record<string, unknown>;

export { policy };

/** Payers of the engine-rule unit tests (names chosen to test case-insensitive orders). */
export const PAYERS = [
  { payer_id: "AET", display_name: "Aetna" },
  { payer_id: "BCB", display_name: "blue Cross" },
  { payer_id: "CMS", display_name: "Medicare (CMS)" },
  { payer_id: "UHC", display_name: "United" },
];

/** LOBs: state-specific and nationwide ones, in the bundled data's id shape. */
export const LOBS = [
  { lob_id: "AET_commercial_CA", payer_id: "AET", lob: "commercial", state: "CA" },
  { lob_id: "AET_commercial_US", payer_id: "AET", lob: "commercial", state: null },
  { lob_id: "AET_medicaid_NY", payer_id: "AET", lob: "medicaid", state: "NY" },
  { lob_id: "AET_medicaid_CA", payer_id: "AET", lob: "medicaid", state: "CA" },
  { lob_id: "BCB_commercial_CA", payer_id: "BCB", lob: "commercial", state: "CA" },
  { lob_id: "BCB_medicaid_CA", payer_id: "BCB", lob: "medicaid", state: "CA" },
  { lob_id: "BCB_medicaid_TX", payer_id: "BCB", lob: "medicaid", state: "TX" },
  { lob_id: "BCB_commercial_US", payer_id: "BCB", lob: "commercial", state: null },
  { lob_id: "CMS_medicare_part_b_US", payer_id: "CMS", lob: "medicare_part_b", state: null },
  { lob_id: "CMS_medicare_part_a_US", payer_id: "CMS", lob: "medicare_part_a", state: null },
  { lob_id: "CMS_medicare_part_b_NF", payer_id: "CMS", lob: "medicare_part_b", state: "NF" },
  { lob_id: "UHC_medicare_advantage_TX", payer_id: "UHC", lob: "medicare_advantage", state: "TX" },
  { lob_id: "UHC_commercial_TX", payer_id: "UHC", lob: "commercial", state: "TX" },
  // An opaque id: the trailing-separator form must still find it through payer + category.
  { lob_id: "uhc-national-comm", payer_id: "UHC", lob: "commercial", state: null },
];

/** A dataset file's contents with the fixture's payers and LOBs (for a snapshot of them). */
export function rulesDataset(policies: Json[], as_of = "2026-06-01"): Json {
  return {
    format: "coverage-dataset",
    version: 1,
    as_of,
    payers: PAYERS,
    lobs: LOBS,
    codes: [],
    policies,
  };
}

/** A db over the fixed payers and LOBs, `today`-independent (as_of 2026-06-01). */
export function rulesDb(policies: Json[], codes: Json[] = [], as_of = "2026-06-01"): Db {
  return buildDb({ payers: PAYERS, lobs: LOBS, codes, policies, as_of });
}

/** An applicability link. */
export function link(lob_id: string, from = "2020-01-01", to: string | null = null): Json {
  return { lob_id, from, to };
}

/** A code link. */
export function code(
  code_system: string,
  value: string,
  relationship = "COVERS",
  category: string | null = null,
): Json {
  return { code_system, code: value, relationship, category };
}

/** Runs the filter endpoint's engine function with `today`. */
export function run(db: Db, request: FilterRequest, today = "2026-06-01") {
  return filterPolicies(db, request, today);
}

/** The ids of a page, in order. */
export function ids(page: { data: Policy[] }): string[] {
  return page.data.map((p) => p.policy_id);
}

/** Every item of the filter result (limit 100 is enough for these small datasets). */
export function allIds(db: Db, request: FilterRequest, today?: string): string[] {
  return ids(run(db, { ...request, limit: 100 }, today));
}
