import * as z from "zod";
import {
  CodeSystem,
  FileType,
  IsoDate,
  LobCategory,
  Relationship,
  StateCode,
} from "../contract/index.js";
import { lazySchema } from "../contract/lazy.js";

// Built on first use, all together (one schema refers to the others as they are, with no
// stand-in in between): building them was ~3 ms of every start, `--help` included.
const build = () => {
  const DatasetPayer = z.object({ payer_id: z.string().min(1), display_name: z.string() });
  const DatasetLob = z.object({
    lob_id: z.string().min(1),
    payer_id: z.string().min(1),
    lob: LobCategory,
    state: StateCode.nullable(),
  });
  const DatasetCode = z.object({
    code_system: CodeSystem,
    code: z.string().min(1),
    description: z.string(),
  });
  const DatasetLink = z.object({
    lob_id: z.string().min(1),
    from: IsoDate,
    to: IsoDate.nullable(),
  });
  const DatasetCodeLink = z.object({
    code_system: CodeSystem,
    code: z.string().min(1),
    relationship: Relationship,
    category: z.string().nullable().default(null),
  });
  const DatasetPolicy = z.object({
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
  const Dataset = z.object({
    format: z.literal("coverage-dataset"),
    version: z.literal(1),
    as_of: IsoDate.nullish(),
    payers: z.array(DatasetPayer),
    lobs: z.array(DatasetLob),
    codes: z.array(DatasetCode).optional().default([]),
    policies: z.array(DatasetPolicy),
  });
  return {
    DatasetPayer,
    DatasetLob,
    DatasetCode,
    DatasetLink,
    DatasetCodeLink,
    DatasetPolicy,
    Dataset,
  };
};
let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build());

export const DatasetPayer = lazySchema(() => schemas().DatasetPayer);
export const DatasetLob = lazySchema(() => schemas().DatasetLob);
export const DatasetCode = lazySchema(() => schemas().DatasetCode);
export const DatasetLink = lazySchema(() => schemas().DatasetLink);
export const DatasetCodeLink = lazySchema(() => schemas().DatasetCodeLink);
export const DatasetPolicy = lazySchema(() => schemas().DatasetPolicy);
/** A `coverage-dataset` version 1 file, as `dataset-format.md` defines it. */
export const Dataset = lazySchema(() => schemas().Dataset);

export type DatasetPayer = z.infer<typeof DatasetPayer>;
export type DatasetLob = z.infer<typeof DatasetLob>;
export type DatasetCode = z.infer<typeof DatasetCode>;
export type DatasetLink = z.infer<typeof DatasetLink>;
export type DatasetCodeLink = z.infer<typeof DatasetCodeLink>;
export type DatasetPolicy = z.infer<typeof DatasetPolicy>;
export type Dataset = z.infer<typeof Dataset>;
/** A dataset as written (defaults not applied yet): what the loader checks and the indexer reads. */
export type DatasetInput = z.input<typeof Dataset>;
