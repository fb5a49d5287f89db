import * as z from "zod";
import { lazySchema } from "./lazy.js";
import {
  CodeSystem,
  DownloadVariant,
  IsoDate,
  LobCategory,
  MatchMode,
  Relationship,
  Sort,
  StateCode,
} from "./enums.js";

const Limit = lazySchema(() => z.int().min(1).max(100));
const Offset = lazySchema(() => z.int().min(0));

export const CodeReference = lazySchema(() =>
  z.strictObject({
    code_system: CodeSystem,
    codes: z.array(z.string().min(1)).min(1),
    relationship: z.array(Relationship).nullish(),
  }),
);
export type CodeReference = z.infer<typeof CodeReference>;

export const CodeRefFilter = lazySchema(() =>
  z.strictObject({
    match: MatchMode.optional(),
    refs: z.array(CodeReference).min(1),
  }),
);
export type CodeRefFilter = z.infer<typeof CodeRefFilter>;

export const EffectiveDateFilter = lazySchema(() =>
  z.strictObject({
    start: IsoDate.nullish(),
    end: IsoDate.nullish(),
  }),
);
export type EffectiveDateFilter = z.infer<typeof EffectiveDateFilter>;

export const PolicyFilter = lazySchema(() =>
  z.strictObject({
    q: z.string().nullish(),
    code_refs: CodeRefFilter.nullish(),
    lob_ids: z.array(z.string()).nullish(),
    payer_ids: z.array(z.string()).nullish(),
    lobs: z.array(LobCategory).nullish(),
    states: z.array(StateCode).nullish(),
    effective_date: EffectiveDateFilter.nullish(),
    retired: z.boolean().nullish(),
  }),
);
export type PolicyFilter = z.infer<typeof PolicyFilter>;

/** Body of `POST /v1/policies/filter`; unknown fields are refused at every level. */
export const FilterRequest = lazySchema(() =>
  z.strictObject({
    policies: PolicyFilter.nullish(),
    sort: Sort.optional(),
    limit: Limit.optional(),
    offset: Offset.optional(),
    include_applicability: z.boolean().optional(),
    include_code_groups: z.boolean().optional(),
  }),
);
export type FilterRequest = z.infer<typeof FilterRequest>;

export const PageQuery = lazySchema(() =>
  z.object({
    limit: Limit.optional(),
    offset: Offset.optional(),
  }),
);
export type PageQuery = z.infer<typeof PageQuery>;

export const PayersQuery = lazySchema(() =>
  PageQuery.extend({
    lobs: z.array(LobCategory).optional(),
  }),
);
export type PayersQuery = z.infer<typeof PayersQuery>;

export const LobsQuery = lazySchema(() =>
  PageQuery.extend({
    lobs: z.array(LobCategory).optional(),
    payer_ids: z.array(z.string()).optional(),
    states: z.array(StateCode).optional(),
  }),
);
export type LobsQuery = z.infer<typeof LobsQuery>;

export const UpdatesQuery = lazySchema(() =>
  PageQuery.extend({
    days: z.int().min(1).max(365).optional(),
  }),
);
export type UpdatesQuery = z.infer<typeof UpdatesQuery>;

export const DownloadQuery = lazySchema(() =>
  z.object({
    variant: DownloadVariant.optional(),
  }),
);
export type DownloadQuery = z.infer<typeof DownloadQuery>;

export const PolicyIdParam = lazySchema(() => z.string().min(1));

/** The path parameters of the policy endpoints, so problems read `path.policy_id: …`. */
export const PolicyPathParams = lazySchema(() => z.object({ policy_id: PolicyIdParam }));
export type PolicyPathParams = z.infer<typeof PolicyPathParams>;

/** Query keys that carry arrays (sent as repeated keys) for each GET list endpoint. */
export const ARRAY_QUERY_KEYS = new Set(["lobs", "payer_ids", "states"]);
