import * as z from "zod";

export const LobCategory = z.enum([
  "commercial",
  "medicare_part_a",
  "medicare_part_b",
  "medicare_advantage",
  "medicare_part_d",
  "medicaid",
  "individual_aca",
]);
export type LobCategory = z.infer<typeof LobCategory>;

export const Sort = z.enum([
  "policy_id_asc",
  "policy_id_desc",
  "title_asc",
  "title_desc",
  "policy_number_asc",
  "policy_number_desc",
  "relevance",
]);
export type Sort = z.infer<typeof Sort>;

export const CodeSystem = z.enum(["CPT", "CPT_MODIFIER", "HCPCS", "HCPCS_MODIFIER", "ICD10CM"]);
export type CodeSystem = z.infer<typeof CodeSystem>;

export const Relationship = z.enum(["COVERS", "DOES_NOT_COVER", "REFERENCES"]);
export type Relationship = z.infer<typeof Relationship>;

export const MatchMode = z.enum(["any", "all"]);
export type MatchMode = z.infer<typeof MatchMode>;

/** The spec's 63 state, territory and Medicare sub-state jurisdiction codes, in its order. */
export const STATE_CODES = [
  ..."AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split(
    " ",
  ),
  ..."DC AS GU PR VI CNMI".split(" "),
  ..."NF SF DN QN UN EM WM".split(" "),
] as const;

export const StateCode = z.enum(STATE_CODES);
export type StateCode = z.infer<typeof StateCode>;

export const FileType = z.enum(["pdf", "html", "md"]);
export type FileType = z.infer<typeof FileType>;

export const DownloadVariant = z.enum(["display", "text"]);
export type DownloadVariant = z.infer<typeof DownloadVariant>;

export const ContentType = z.enum(["application/pdf", "text/html", "text/markdown"]);
export type ContentType = z.infer<typeof ContentType>;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isRealDate(value: string): boolean {
  if (!DATE_SHAPE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export const IsoDate = z.string().refine(isRealDate, {
  message: "Input should be a valid date in the format YYYY-MM-DD",
  params: { type: "date_parsing" },
});
export type IsoDate = z.infer<typeof IsoDate>;
