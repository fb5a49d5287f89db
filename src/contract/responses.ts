import * as z from "zod";
import { lazySchema } from "./lazy.js";
import { CodeSystem, ContentType, FileType, IsoDate, LobCategory, Relationship } from "./enums.js";

// Response objects are loose: the server may add fields, and `--json` must keep them.

export const Applicability = lazySchema(() =>
  z.looseObject({
    payer_ids: z.array(z.string()),
    payer_names: z.array(z.string()),
    lobs: z.array(LobCategory),
    state: z.string().nullable(),
  }),
);
export type Applicability = z.infer<typeof Applicability>;

/** On the detail response the `state` key is left out for nationwide scopes. */
export const DetailApplicability = lazySchema(() =>
  Applicability.extend({ state: z.string().nullish() }),
);
export type DetailApplicability = z.infer<typeof DetailApplicability>;

export const CodeGroup = lazySchema(() =>
  z.looseObject({
    code_system: CodeSystem,
    relationship: Relationship,
    category: z.string().nullable(),
    codes: z.array(z.string()),
    descriptions: z.array(z.string()).optional(),
  }),
);
export type CodeGroup = z.infer<typeof CodeGroup>;

export const Policy = lazySchema(() =>
  z.looseObject({
    policy_id: z.string(),
    policy_number: z.string(),
    title: z.string(),
    effective_from_date: IsoDate,
    effective_to_date: IsoDate.nullable(),
    file_url: z.string(),
    file_type: FileType,
    listing_url: z.string(),
    summary: z.string().nullable(),
    score: z.number().nullish(),
    applicability: z.array(Applicability).nullish(),
    code_groups: z.array(CodeGroup).nullish(),
  }),
);
export type Policy = z.infer<typeof Policy>;

export const PolicyDetail = lazySchema(() =>
  Policy.extend({
    applicability: z.array(DetailApplicability),
    code_groups: z.array(CodeGroup),
    criteria_text: z.string().nullable(),
  }),
);
export type PolicyDetail = z.infer<typeof PolicyDetail>;

export const Payer = lazySchema(() =>
  z.looseObject({
    payer_id: z.string(),
    display_name: z.string(),
  }),
);
export type Payer = z.infer<typeof Payer>;

export const Lob = lazySchema(() =>
  z.looseObject({
    lob_id: z.string(),
    payer_id: z.string(),
    payer_name: z.string(),
    lob: LobCategory,
    state: z.string().nullish(),
  }),
);
export type Lob = z.infer<typeof Lob>;

export const PolicyUpdate = lazySchema(() =>
  z.looseObject({
    policy_id: z.string(),
    policy_number: z.string(),
    title: z.string(),
    effective_from_date: IsoDate,
    change_type: z.string(),
    payer_id: z.string(),
    payer_display_name: z.string(),
    file_url: z.string(),
  }),
);
export type PolicyUpdate = z.infer<typeof PolicyUpdate>;

export const DownloadLink = lazySchema(() =>
  z.looseObject({
    url: z.string(),
    content_type: ContentType,
    filename: z.string(),
  }),
);
export type DownloadLink = z.infer<typeof DownloadLink>;

/** The pagination envelope of every list response. */
export function Envelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    limit: z.int(),
    offset: z.int(),
    has_more: z.boolean(),
  });
}
export interface Envelope<T> {
  data: T[];
  limit: number;
  offset: number;
  has_more: boolean;
}

export const PolicyPage = lazySchema(() => Envelope(Policy));
export const PayerPage = lazySchema(() => Envelope(Payer));
export const LobPage = lazySchema(() => Envelope(Lob));
export const PolicyUpdatePage = lazySchema(() => Envelope(PolicyUpdate));

export const ValidationErrorItem = lazySchema(() =>
  z.looseObject({
    loc: z.array(z.union([z.string(), z.int()])),
    msg: z.string(),
    type: z.string(),
    input: z.unknown().optional(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type ValidationErrorItem = z.infer<typeof ValidationErrorItem>;

export const ValidationErrorBody = lazySchema(() =>
  z.looseObject({ detail: z.array(ValidationErrorItem) }),
);
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;

/** `{detail: "..."}` bodies of 401, 403 and 404. */
export const MessageBody = lazySchema(() => z.looseObject({ detail: z.string() }));
export type MessageBody = z.infer<typeof MessageBody>;

export const StatusBody = lazySchema(() => z.looseObject({ status: z.string() }));
export type StatusBody = z.infer<typeof StatusBody>;
