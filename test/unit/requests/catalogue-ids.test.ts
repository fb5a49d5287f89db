import { describe, expect, it } from "vitest";
import {
  hasCatalogueSpelling,
  respellIds,
  respellInput,
  type IdKind,
} from "../../../src/requests/catalogue-ids.js";
import { SEARCH_ID_FIELDS } from "../../../src/requests/search.js";

const PAYERS = ["AETNA", "CMS", "UHC"];
const LOBS = ["AETNA_commercial_US", "CMS_medicare_part_b_NF", "UHC_medicaid_CA"];

describe("hasCatalogueSpelling: sent as typed, without asking for the list", () => {
  it.each<[IdKind, string, boolean]>([
    ["payer", "AETNA", true],
    ["payer", "BCBS-TX", true],
    ["payer", "aetna", false],
    ["payer", "Aetna", false],
    ["lob", "CMS_medicare_part_b_NF", true],
    ["lob", "AETNA_commercial_US", true],
    ["lob", "AETNA_commercial_", true],
    ["lob", "cms_medicare_part_b_nf", false],
    ["lob", "CMS_MEDICARE_PART_B_NF", false],
    ["lob", "CMS_medicare_part_b_nf", false],
  ])("%s %s -> %s", (kind, id, ok) => {
    expect(hasCatalogueSpelling(kind, id)).toBe(ok);
  });
});

describe("respellIds", () => {
  it.each<[IdKind, string[], string[]]>([
    ["payer", ["aetna", "Cms", "UHC"], ["AETNA", "CMS", "UHC"]],
    ["lob", ["cms_medicare_part_b_nf"], ["CMS_medicare_part_b_NF"]],
    ["lob", ["CMS_MEDICARE_PART_B_NF"], ["CMS_medicare_part_b_NF"]],
    ["lob", ["aetna_commercial_"], ["AETNA_commercial_"]],
  ])("%s %j -> %j", (kind, ids, out) => {
    expect(respellIds(kind, ids, kind === "payer" ? PAYERS : LOBS, "--x")).toEqual(out);
  });

  it("an id the catalogue lacks names the flag and close ids", () => {
    expect(() => respellIds("payer", ["aetnax"], PAYERS, "--payer")).toThrow(
      "--payer 'aetnax' is not a payer id of the catalogue",
    );
    try {
      respellIds("lob", ["cms_medicare"], LOBS, "--lob-id");
    } catch (err) {
      expect((err as { suggestion: string }).suggestion).toMatch(
        /Close LOB ids: CMS_medicare_part_b_NF/,
      );
    }
  });
});

describe("respellInput", () => {
  it("asks for a list only when an id is not in the catalogue's spelling, once per kind", async () => {
    const asked: IdKind[] = [];
    const list = async (kind: IdKind) => {
      asked.push(kind);
      return kind === "payer" ? PAYERS : LOBS;
    };
    const exact = { policies: { payer_ids: ["AETNA"], lob_ids: ["UHC_medicaid_CA"] } };
    expect(await respellInput(exact, SEARCH_ID_FIELDS, list)).toBe(exact);
    expect(asked).toEqual([]);
    const loose = { policies: { payer_ids: ["aetna", "uhc"], states: ["CA"] }, limit: 5 };
    expect(await respellInput(loose, SEARCH_ID_FIELDS, list)).toEqual({
      policies: { payer_ids: ["AETNA", "UHC"], states: ["CA"] },
      limit: 5,
    });
    expect(asked).toEqual(["payer"]);
  });
});
