import { describe, expect, it } from "vitest";
import {
  findClosest,
  respellIds,
  respellInput,
  type IdKind,
} from "../../../src/requests/catalogue-ids.js";
import { SEARCH_ID_FIELDS } from "../../../src/requests/search.js";

const PAYERS = ["AETNA", "CMS", "UHC"];
const LOBS = ["AETNA_commercial_US", "CMS_medicare_part_b_NF", "UHC_medicaid_CA"];

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
        /Closest LOB ids: CMS_medicare_part_b_NF/,
      );
    }
  });
});

describe("findClosest", () => {
  it.each<[string, string[]]>([
    ["AETN", ["AETNA"]],
    ["aetnax", ["AETNA"]],
    ["UHCC", ["UHC"]],
    ["ZZQQ", ["CMS", "UHC", "AETNA"]],
  ])("%s -> %j", (id, out) => {
    expect(findClosest(id, PAYERS)).toEqual(out);
  });
  it("a LOB id with a wrong state: the same payer and category first", () => {
    expect(findClosest("AETNA_commercial_XX", LOBS)[0]).toBe("AETNA_commercial_US");
  });
});

describe("respellInput", () => {
  it("asks for a list only when ids of its kind are given, once per kind; checks every id", async () => {
    const asked: IdKind[] = [];
    const list = async (kind: IdKind) => {
      asked.push(kind);
      return kind === "payer" ? PAYERS : LOBS;
    };
    const none = { policies: { states: ["CA"] } };
    expect(await respellInput(none, SEARCH_ID_FIELDS, list)).toBe(none);
    expect(asked).toEqual([]);
    const exact = { policies: { payer_ids: ["AETNA"], lob_ids: ["UHC_medicaid_CA"] } };
    expect(await respellInput(exact, SEARCH_ID_FIELDS, list)).toEqual(exact);
    expect(asked).toEqual(["payer", "lob"]);
    asked.length = 0;
    // Upper case is no proof: AETN is checked and refused.
    await expect(
      respellInput({ policies: { payer_ids: ["AETN"] } }, SEARCH_ID_FIELDS, list),
    ).rejects.toThrow("--payer 'AETN' is not a payer id of the catalogue");
    asked.length = 0;
    const loose = { policies: { payer_ids: ["aetna", "uhc"], states: ["CA"] }, limit: 5 };
    expect(await respellInput(loose, SEARCH_ID_FIELDS, list)).toEqual({
      policies: { payer_ids: ["AETNA", "UHC"], states: ["CA"] },
      limit: 5,
    });
    expect(asked).toEqual(["payer"]);
  });
});
