import type { ContentType, DownloadLink, DownloadVariant, FileType } from "../contract/index.js";
import type { PolicyRecord } from "./db.js";

const CONTENT_TYPES: Record<FileType, ContentType> = {
  pdf: "application/pdf",
  html: "text/html",
  md: "text/markdown",
};

/** Rule Download: the dataset-relative path of a variant's file, if one is stored. */
export function findStoredFile(
  version: PolicyRecord,
  variant: DownloadVariant,
): string | undefined {
  return variant === "text" ? version.files.text : version.files.display;
}

/**
 * Rule Download: the policy number made safe, with the extension of what is served. One `_` per
 * character (code point, hence the `u` flag), not per UTF-16 unit.
 */
export function makeDownloadFilename(policyNumber: string, ext: FileType): string {
  const base = policyNumber.replace(/[^A-Za-z0-9._-]/gu, "_");
  return `${base}.${ext}`;
}

/** Rule Download: the link object for a variant, given where the file can be fetched. */
export function buildDownloadLink(
  version: PolicyRecord,
  variant: DownloadVariant,
  url: string,
): DownloadLink {
  const type: FileType = variant === "text" ? "md" : version.file_type;
  return {
    url,
    content_type: CONTENT_TYPES[type],
    filename: makeDownloadFilename(version.policy_number, type),
  };
}
