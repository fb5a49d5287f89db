import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CodeSystem, Relationship } from "../../../src/contract/index.js";
import { parseDataset } from "../../../src/dataset/load.js";
import type { DatasetInput } from "../../../src/dataset/schema.js";
import { makeCodeKey } from "../../../src/engine/codes.js";
import { indexDataset } from "../../../src/engine/db.js";

type RawLink = {
  code_system: CodeSystem;
  code: string;
  relationship: Relationship;
  category?: string | null;
};

function dataset(policies: Array<{ id: string; codes: RawLink[]; extra?: object }>): DatasetInput {
  return {
    format: "coverage-dataset",
    version: 1,
    payers: [{ payer_id: "P1", display_name: "Alpha" }],
    lobs: [{ lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial", state: null }],
    codes: [{ code_system: "ICD10CM", code: "e11.9", description: "Type 2 diabetes" }],
    policies: policies.map(({ id, codes, extra }) => ({
      policy_id: id,
      policy_number: id,
      title: `Title ${id}`,
      effective_from_date: id.slice(id.lastIndexOf("/") + 1),
      effective_to_date: null,
      file_url: "u",
      file_type: "pdf",
      listing_url: "l",
      summary: null,
      applicability: [{ lob_id: "P1_commercial_US", from: "2024-01-01", to: null }],
      codes,
      ...extra,
    })),
  };
}

const link = (code_system: CodeSystem, code: string, category?: string | null): RawLink =>
  category === undefined
    ? { code_system, code, relationship: "COVERS" }
    : { code_system, code, relationship: "COVERS", category };

describe("indexDataset", () => {
  it("sorts versions by id and indexes every spelling of a code under its normalised key", () => {
    const db = indexDataset(
      dataset([
        { id: "s/B/2024-01-01", codes: [link("ICD10CM", "E11.9"), link("CPT", "97110")] },
        { id: "s/A/2024-01-01", codes: [link("ICD10CM", "e119 "), link("ICD10CM", "E11.9")] },
        { id: "s/C/2024-01-01", codes: [link("HCPCS", "97110")] },
      ]),
    );
    expect(db.policies.map((p) => p.policy_id)).toEqual([
      "s/A/2024-01-01",
      "s/B/2024-01-01",
      "s/C/2024-01-01",
    ]);
    // Version A links E11.9 twice (two spellings): it is listed once.
    expect(db.byCode.get("ICD10CM:E119")).toEqual([0, 1]);
    expect(db.byCode.get("CPT:97110")).toEqual([1]);
    expect(db.byCode.get("HCPCS:97110")).toEqual([2]);
    expect(db.catalogue.get("ICD10CM:E119")).toBe("Type 2 diabetes");
  });

  it("makes code-link records as written, with their key and a null category by default", () => {
    const db = indexDataset(
      dataset([
        {
          id: "s/A/2024-01-01",
          codes: [
            link("ICD10CM", "e11.9", "Group 1"),
            { ...link("CPT", "97110"), extra: 1 } as RawLink,
          ],
        },
      ]),
    );
    const [version] = db.policies;
    expect(version?.codes).toEqual([
      {
        code_system: "ICD10CM",
        code: "e11.9",
        key: "ICD10CM:E119",
        relationship: "COVERS",
        category: "Group 1",
      },
      {
        code_system: "CPT",
        code: "97110",
        key: "CPT:97110",
        relationship: "COVERS",
        category: null,
      },
    ]);
    // Made once: the same records on every read.
    expect(version?.codes).toBe(version?.codes);
  });

  it("keeps only the known fields of a version, with the documented defaults", () => {
    const db = indexDataset(
      parseDataset(
        dataset([
          {
            id: "s/A/2024-01-01",
            codes: [],
            extra: { files: { text: "a.md", other: "x" }, note: "n" },
          },
          { id: "s/B/2024-01-01", codes: [] },
        ]),
        "inline",
      ),
    );
    const [a, b] = db.policies;
    expect(a?.files).toEqual({ text: "a.md" });
    expect(Object.keys(a?.files ?? {})).toEqual(["text"]);
    expect(b?.files).toEqual({});
    expect(a?.criteria_text).toBeNull();
    expect(a?.series).toBe("s/A");
    expect(a).not.toHaveProperty("note");
    expect(db.byId.get("s/B/2024-01-01")).toBe(b);
    expect(db.bySeries.get("s/A")).toEqual([a]);
  });

  it("builds the same code index as a scan of every version's links", () => {
    const systems: CodeSystem[] = ["CPT", "HCPCS", "ICD10CM"];
    const spellings = ["E11.9", "e119", "E119", "97110", "A1", "a1", " A1 "];
    const version = fc.record({
      key: fc.integer({ min: 0, max: 30 }),
      codes: fc.array(
        fc.record({
          code_system: fc.constantFrom(...systems),
          code: fc.constantFrom(...spellings),
        }),
        { maxLength: 6 },
      ),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(version, { selector: (v) => v.key, maxLength: 12 }),
        (versions) => {
          const db = indexDataset(
            dataset(
              versions.map((v) => ({
                id: `s/${v.key}/2024-01-01`,
                codes: v.codes.map((c) => link(c.code_system, c.code)),
              })),
            ),
          );
          const expected = new Map<string, number[]>();
          db.policies.forEach((p, i) => {
            for (const c of p.codes) {
              const key = makeCodeKey(c.code_system, c.code);
              const list = expected.get(key) ?? [];
              if (list[list.length - 1] !== i) list.push(i);
              expected.set(key, list);
            }
          });
          expect(db.byCode).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
