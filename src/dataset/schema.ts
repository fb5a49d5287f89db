import { z } from "zod";
import {
  CodeSystem,
  FileType,
  IsoDate,
  LobCategory,
  Relationship,
  StateCode,
} from "../contract/index.js";

export const DatasetPayer = z.object({ payer_id: z.string().min(1), display_name: z.string() });
export type DatasetPayer = z.infer<typeof DatasetPayer>;

export const DatasetLob = z.object({
  lob_id: z.string().min(1),
  payer_id: z.string().min(1),
  lob: LobCategory,
  state: StateCode.nullable(),
});
export type DatasetLob = z.infer<typeof DatasetLob>;

export const DatasetCode = z.object({
  code_system: CodeSystem,
  code: z.string().min(1),
  description: z.string(),
});
export type DatasetCode = z.infer<typeof DatasetCode>;

export const DatasetLink = z.object({
  lob_id: z.string().min(1),
  from: IsoDate,
  to: IsoDate.nullable(),
});
export type DatasetLink = z.infer<typeof DatasetLink>;

export const DatasetCodeLink = z.object({
  code_system: CodeSystem,
  code: z.string().min(1),
  relationship: Relationship,
  category: z.string().nullable().default(null),
});
export type DatasetCodeLink = z.infer<typeof DatasetCodeLink>;

export const DatasetPolicy = z.object({
  policy_id: z.string().min(1),
  policy_number: z.string(),
  title: z.string(),
  effective_from_date: IsoDate,
  effective_to_date: IsoDate.nullable(),
  file_url: z.string(),
  file_type: FileType,
  listing_url: z.string(),
  summary: z.string().nullable(),
  criteria_text: z.string().nullable().default(null),
  files: z.object({ display: z.string().optional(), text: z.string().optional() }).optional(),
  applicability: z.array(DatasetLink),
  codes: z.array(DatasetCodeLink),
});
export type DatasetPolicy = z.infer<typeof DatasetPolicy>;

/** A `coverage-dataset` version 1 file, as `dataset-format.md` defines it. */
export const Dataset = z.object({
  format: z.literal("coverage-dataset"),
  version: z.literal(1),
  as_of: IsoDate.nullish(),
  payers: z.array(DatasetPayer),
  lobs: z.array(DatasetLob),
  codes: z.array(DatasetCode).optional().default([]),
  policies: z.array(DatasetPolicy),
});
export type Dataset = z.infer<typeof Dataset>;
/** A dataset as written (defaults not applied yet): what the loader checks and the indexer reads. */
export type DatasetInput = z.input<typeof Dataset>;
