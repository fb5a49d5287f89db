import type { CodeLinkRecord } from "../engine/db.js";

type Packed = [string, string, string, string, (string | null)?];

/**
 * A version's code links from `version_code_links.code_links`: a JSON array of
 * `[code_system, code, key, relationship, category]` (no category where the dataset left it out).
 */
export function unpackCodeLinks(json: string | null | undefined): CodeLinkRecord[] {
  const packed = JSON.parse(json ?? "[]") as Packed[];
  const codes = new Array<CodeLinkRecord>(packed.length);
  for (let i = 0; i < packed.length; i++) {
    const l = packed[i] as Packed;
    codes[i] = {
      code_system: l[0] as CodeLinkRecord["code_system"],
      code: l[1],
      key: l[2],
      relationship: l[3] as CodeLinkRecord["relationship"],
      category: l.length > 4 ? (l[4] ?? null) : null,
    };
  }
  return codes;
}
