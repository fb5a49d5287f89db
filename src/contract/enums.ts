import * as z from "zod";
import { lazySchema } from "./lazy.js";

// Each enum's values are a plain list, for code that only needs the values (an order, a help
// text, a membership test): the schema is built only when something is parsed with it.

export const LOB_CATEGORIES = [
  "commercial",
  "medicare_part_a",
  "medicare_part_b",
  "medicare_advantage",
  "medicare_part_d",
  "medicaid",
  "individual_aca",
] as const;
export const LobCategory = lazySchema(() => z.enum(LOB_CATEGORIES));
export type LobCategory = z.infer<typeof LobCategory>;

export const SORTS = [
  "policy_id_asc",
  "policy_id_desc",
  "title_asc",
  "title_desc",
  "policy_number_asc",
  "policy_number_desc",
  "relevance",
] as const;
export const Sort = lazySchema(() => z.enum(SORTS));
export type Sort = z.infer<typeof Sort>;

export const CODE_SYSTEMS = ["CPT", "CPT_MODIFIER", "HCPCS", "HCPCS_MODIFIER", "ICD10CM"] as const;
export const CodeSystem = lazySchema(() => z.enum(CODE_SYSTEMS));
export type CodeSystem = z.infer<typeof CodeSystem>;

export const RELATIONSHIPS = ["COVERS", "DOES_NOT_COVER", "REFERENCES"] as const;
export const Relationship = lazySchema(() => z.enum(RELATIONSHIPS));
export type Relationship = z.infer<typeof Relationship>;

export const MATCH_MODES = ["any", "all"] as const;
export const MatchMode = lazySchema(() => z.enum(MATCH_MODES));
export type MatchMode = z.infer<typeof MatchMode>;

/** The spec's 63 state, territory and Medicare sub-state jurisdiction codes, in its order. */
export const STATE_CODES = [
  ..."AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split(
    " ",
  ),
  ..."DC AS GU PR VI CNMI".split(" "),
  ..."NF SF DN QN UN EM WM".split(" "),
] as const;

export const StateCode = lazySchema(() => z.enum(STATE_CODES));
export type StateCode = z.infer<typeof StateCode>;

export const FILE_TYPES = ["pdf", "html", "md"] as const;
export const FileType = lazySchema(() => z.enum(FILE_TYPES));
export type FileType = z.infer<typeof FileType>;

export const DOWNLOAD_VARIANTS = ["display", "text"] as const;
export const DownloadVariant = lazySchema(() => z.enum(DOWNLOAD_VARIANTS));
export type DownloadVariant = z.infer<typeof DownloadVariant>;

export const CONTENT_TYPES = ["application/pdf", "text/html", "text/markdown"] as const;
export const ContentType = lazySchema(() => z.enum(CONTENT_TYPES));
export type ContentType = z.infer<typeof ContentType>;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isRealDate(value: string): boolean {
  if (!DATE_SHAPE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export const IsoDate = lazySchema(() =>
  z.string().refine(isRealDate, {
    message: "Input should be a valid date in the format YYYY-MM-DD",
    params: { type: "date_parsing" },
  }),
);
export type IsoDate = z.infer<typeof IsoDate>;
