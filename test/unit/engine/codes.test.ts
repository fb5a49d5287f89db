import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CodeRefFilter, CodeReference, CodeSystem } from "../../../src/contract/index.js";
import {
  findCodeCandidates,
  isSettledByCandidates,
  pickFirstFilteredCodeKeys,
  matchesCodeRef,
  matchesCodeRefs,
  normaliseCode,
  normalisesTo,
} from "../../../src/engine/codes.js";
import type { PolicyRecord } from "../../../src/engine/db.js";
import { allIds, code, policy, rulesDb } from "./rules-fixture.js";

describe("normaliseCode (rule Filter 5)", () => {
  it.each<[CodeSystem, string, string]>([
    ["CPT", "97110", "97110"],
    ["CPT", " 0001u ", "0001U"],
    ["HCPCS", "e0601", "E0601"],
    ["HCPCS_MODIFIER", "kx", "KX"],
    ["CPT_MODIFIER", "\t59\n", "59"],
    ["ICD10CM", "g47.33", "G4733"],
    ["ICD10CM", " G47.33 ", "G4733"],
    ["ICD10CM", "G4733", "G4733"],
    ["ICD10CM", "M25.561", "M25561"],
    // Dots are only dropped for ICD-10-CM: other systems keep the code as written.
    ["HCPCS", "E0.601", "E0.601"],
  ])("%s %j -> %s", (system, raw, expected) => {
    expect(normaliseCode(system, raw)).toBe(expected);
  });
});

// Data written in every form the dataset may use: lower case, dotted, dotless, padded.
const db = rulesDb([
  policy("c/one/2020-01-01", {
    codes: [
      code("CPT", "97110", "COVERS"),
      code("ICD10CM", "g47.33", "DOES_NOT_COVER"),
      code("HCPCS_MODIFIER", "kx", "REFERENCES"),
    ],
  }),
  policy("c/two/2020-01-01", {
    codes: [code("CPT", " 97112 ", "COVERS"), code("ICD10CM", "M25561", "REFERENCES")],
  }),
  policy("c/three/2020-01-01", {
    codes: [code("HCPCS", "E0601", "DOES_NOT_COVER"), code("CPT", "97110", "REFERENCES")],
  }),
]);
const version = (id: string) => db.byId.get(id) as PolicyRecord;

describe("normalisesTo: normaliseCode's answer without the string", () => {
  const SYSTEMS: CodeSystem[] = ["ICD10CM", "CPT", "HCPCS"];
  const chars = fc.constantFrom(..."aAeE19. \t\n\u00a0\ufeffßéİ-".split(""));
  const code = fc.array(chars, { maxLength: 8 }).map((c) => c.join(""));
  it("agrees with comparing normaliseCode's strings (ASCII and not)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SYSTEMS), code, code, (system, a, b) => {
        const k = normaliseCode(system, b);
        expect(normalisesTo(system, a, k)).toBe(normaliseCode(system, a) === k);
        expect(normalisesTo(system, a, normaliseCode(system, a))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it.each<[CodeSystem, string, string, boolean]>([
    ["ICD10CM", " e11.9 ", "E119", true],
    ["ICD10CM", ". E119", "E119", false],
    ["CPT", "97.110", "97110", false],
    ["ICD10CM", "E11.9\u00a0", "E119", true],
    ["ICD10CM", "E11.91", "E119", false],
  ])("%s %j -> %j: %s", (system, raw, key, want) => {
    expect(normalisesTo(system, raw, key)).toBe(want);
  });
});

describe("matchesCodeRef (rule Filter 5: system, normalised code, relationship list)", () => {
  it.each<{ name: string; id: string; ref: CodeReference; expected: boolean }>([
    {
      name: "same system and code",
      id: "c/one/2020-01-01",
      ref: { code_system: "CPT", codes: ["97110"] },
      expected: true,
    },
    {
      name: "ICD-10-CM dotless query, dotted lower-case data",
      id: "c/one/2020-01-01",
      ref: { code_system: "ICD10CM", codes: ["G4733"] },
      expected: true,
    },
    {
      name: "ICD-10-CM dotted query, dotless data",
      id: "c/two/2020-01-01",
      ref: { code_system: "ICD10CM", codes: ["m25.561"] },
      expected: true,
    },
    {
      name: "padded data, padded query",
      id: "c/two/2020-01-01",
      ref: { code_system: "CPT", codes: ["  97112"] },
      expected: true,
    },
    {
      name: "case-insensitive modifier",
      id: "c/one/2020-01-01",
      ref: { code_system: "HCPCS_MODIFIER", codes: ["Kx"] },
      expected: true,
    },
    {
      name: "same code, other system",
      id: "c/one/2020-01-01",
      ref: { code_system: "HCPCS", codes: ["97110"] },
      expected: false,
    },
    {
      name: "codes OR-ed inside a ref",
      id: "c/two/2020-01-01",
      ref: { code_system: "CPT", codes: ["00000", "97112"] },
      expected: true,
    },
    {
      name: "relationship given and matching",
      id: "c/one/2020-01-01",
      ref: { code_system: "ICD10CM", codes: ["G47.33"], relationship: ["DOES_NOT_COVER"] },
      expected: true,
    },
    {
      name: "relationship given, not the link's",
      id: "c/one/2020-01-01",
      ref: { code_system: "ICD10CM", codes: ["G47.33"], relationship: ["COVERS"] },
      expected: false,
    },
    {
      name: "relationships OR-ed",
      id: "c/one/2020-01-01",
      ref: {
        code_system: "ICD10CM",
        codes: ["G47.33"],
        relationship: ["COVERS", "DOES_NOT_COVER"],
      },
      expected: true,
    },
    {
      name: "relationship null: every relationship",
      id: "c/three/2020-01-01",
      ref: { code_system: "CPT", codes: ["97110"], relationship: null },
      expected: true,
    },
    {
      name: "relationship [] given: no relationship is in it",
      id: "c/three/2020-01-01",
      ref: { code_system: "CPT", codes: ["97110"], relationship: [] },
      expected: false,
    },
    {
      name: "relationship must hold on the link of that code, not another code's",
      id: "c/three/2020-01-01",
      ref: { code_system: "CPT", codes: ["97110"], relationship: ["DOES_NOT_COVER"] },
      expected: false,
    },
  ])("$name -> $expected", ({ id, ref, expected }) => {
    expect(matchesCodeRef(version(id), ref)).toBe(expected);
  });
});

describe("matchesCodeRefs (rule Filter 5: any / all)", () => {
  const cpt: CodeReference = { code_system: "CPT", codes: ["97110"] };
  const icd: CodeReference = { code_system: "ICD10CM", codes: ["G47.33"] };
  const none: CodeReference = { code_system: "CPT", codes: ["99999"] };
  it.each<{ name: string; filter: CodeRefFilter; expected: string[] }>([
    { name: "any (default)", filter: { refs: [cpt, icd] }, expected: ["c/one", "c/three"] },
    { name: "any explicit", filter: { match: "any", refs: [none, icd] }, expected: ["c/one"] },
    { name: "all", filter: { match: "all", refs: [cpt, icd] }, expected: ["c/one"] },
    {
      name: "all with an unmatched ref",
      filter: { match: "all", refs: [cpt, none] },
      expected: [],
    },
    {
      name: "all with one ref",
      filter: { match: "all", refs: [cpt] },
      expected: ["c/one", "c/three"],
    },
  ])("$name", ({ filter, expected }) => {
    const matched = db.policies.filter((v) => matchesCodeRefs(v, filter)).map((v) => v.series);
    expect(matched).toEqual(expected);
    // The index narrows to a superset of what matches, and filterPolicies agrees.
    const candidates = findCodeCandidates(db.byCode, filter).map((i) => db.policies[i]?.series);
    for (const s of expected) expect(candidates).toContain(s);
    expect(allIds(db, { policies: { code_refs: filter }, sort: "policy_id_asc" })).toEqual(
      expected.map((s) => `${s}/2020-01-01`),
    );
  });

  it("findCodeCandidates never loses a matching version (property)", () => {
    const systems: CodeSystem[] = ["CPT", "ICD10CM", "HCPCS", "HCPCS_MODIFIER"];
    const codes = ["97110", "g4733", "G47.33", "m25.561", "KX", "e0601", "97112", "x"];
    const ref = fc.record({
      code_system: fc.constantFrom(...systems),
      codes: fc.array(fc.constantFrom(...codes), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(ref, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("any", "all"),
        (refs, match) => {
          const filter: CodeRefFilter = { refs, match: match as "any" | "all" };
          const candidates = new Set(findCodeCandidates(db.byCode, filter));
          db.policies.forEach((v, i) => {
            if (matchesCodeRefs(v, filter)) expect(candidates.has(i)).toBe(true);
          });
        },
      ),
    );
  });

  it("findCodeCandidates is exact when no ref lists relationships (property)", () => {
    // The engine skips the code-link test of such candidates (isSettledByCandidates).
    const systems: CodeSystem[] = ["CPT", "ICD10CM", "HCPCS", "HCPCS_MODIFIER"];
    const codes = ["97110", "g4733", "G47.33", "m25.561", "KX", "e0601", "97112", "x"];
    const relationships = ["COVERS", "DOES_NOT_COVER", "REFERENCES"] as const;
    const ref = fc.record(
      {
        code_system: fc.constantFrom(...systems),
        codes: fc.array(fc.constantFrom(...codes), { minLength: 1, maxLength: 3 }),
        relationship: fc.subarray([...relationships]),
      },
      { requiredKeys: ["code_system", "codes"] },
    );
    fc.assert(
      fc.property(
        fc.array(ref, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("any", "all"),
        (refs, match) => {
          const filter: CodeRefFilter = { refs, match: match as "any" | "all" };
          const settled = refs.every((r) => r.relationship === undefined);
          expect(isSettledByCandidates(filter)).toBe(settled);
          if (!settled) return;
          const matched = db.policies.flatMap((v, i) => (matchesCodeRefs(v, filter) ? [i] : []));
          expect(findCodeCandidates(db.byCode, filter)).toEqual(matched);
        },
      ),
    );
  });
});

describe("pickFirstFilteredCodeKeys (rule Ordering: the first 20 filtered codes, in order)", () => {
  it("keeps the order given across refs, normalised, distinct, at most 20", () => {
    const many = Array.from({ length: 25 }, (_, i) => String(90000 + i));
    const keys = pickFirstFilteredCodeKeys({
      refs: [
        { code_system: "ICD10CM", codes: ["g47.33", "G4733"] },
        { code_system: "CPT", codes: many },
      ],
    });
    expect(keys).toHaveLength(20);
    expect(keys.slice(0, 3)).toEqual(["ICD10CM:G4733", "CPT:90000", "CPT:90001"]);
    expect(keys.at(-1)).toBe("CPT:90018");
  });
});
