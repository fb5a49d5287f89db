import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  CodeRefFilter,
  CodeReference,
  LobCategory,
  PolicyFilter,
} from "../../../src/contract/index.js";
import { listPayers, listLobs } from "../../../src/engine/catalog.js";
import { listRefKeys, matchesCodeRefs } from "../../../src/engine/codes.js";
import type { LinkRecord, PolicyRecord } from "../../../src/engine/db.js";
import { matchesLobId, matchesScope, selectLinks } from "../../../src/engine/links.js";
import { code, LOBS, link, policy, rulesDb, run } from "./rules-fixture.js";

// Cost is held without clocks: the request's lists are wrapped so every read of an element is
// counted. Compiling a request reads each element a few times; matching per version (the old
// way, a Set per ref per candidate, `includes` per link) reads them once per version or link.

/** A copy of `list` that counts reads of its elements in `reads.n`. */
function counted<T>(list: T[], reads: { n: number }): T[] {
  return new Proxy(list, {
    get(target, prop, receiver) {
      if (typeof prop === "string" && /^\d+$/.test(prop)) reads.n++;
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

const VERSIONS = 60;
const CODES = 300;
const codeOf = (i: number) => `A${String(i).padStart(2, "0")}.${i % 10}`;
// Every version links a few of the request's codes, in several LOBs, so all are candidates.
const db = rulesDb(
  Array.from({ length: VERSIONS }, (_, v) =>
    policy(`cost/p${String(v).padStart(3, "0")}/2020-01-01`, {
      codes: [0, 1, 2].map((k) => code("ICD10CM", codeOf((v * 5 + k) % CODES), "COVERS")),
      applicability: LOBS.slice(0, 8).map((l) => link(l.lob_id)),
    }),
  ),
);

describe("the engine's cost grows with request + matches, not their product", () => {
  it.each(["any", "all"] as const)(
    "`%s`: a ref's codes are read a bounded number of times, however many versions are candidates",
    (match) => {
      const reads = { n: 0 };
      const codes = counted(
        Array.from({ length: CODES }, (_, i) => codeOf(i)),
        reads,
      );
      const refs = [{ code_system: "ICD10CM" as const, codes }];
      const page = run(db, { policies: { code_refs: { match, refs } }, limit: 100 });
      expect(page.data).toHaveLength(VERSIONS);
      // Compile (normalise each code once), ranking's first 20: a few reads per code. The old
      // engine read all 300 once per candidate version: 60 x 300.
      expect(reads.n).toBeLessThanOrEqual(3 * CODES);
    },
  );

  it("many refs under `all` are read a bounded number of times", () => {
    const reads = { n: 0 };
    const refs = counted(
      Array.from({ length: CODES }, () => ({
        code_system: "ICD10CM" as const,
        codes: Array.from({ length: CODES }, (_, i) => codeOf(i)),
      })),
      reads,
    );
    run(db, { policies: { code_refs: { match: "all", refs } }, limit: 100 });
    expect(reads.n).toBeLessThanOrEqual(4 * CODES);
  });

  it("`all` over refs that share a code reads that code's versions once, not once per ref", () => {
    const shared = rulesDb(
      Array.from({ length: 50 }, (_, v) =>
        policy(`share/p${String(v).padStart(3, "0")}/2020-01-01`, {
          codes: [code("ICD10CM", "E11.9"), code("ICD10CM", codeOf(v))],
        }),
      ),
    );
    const reads = { n: 0 };
    // The in-memory store's code index is a Map (a snapshot's is read-only).
    const byCode = shared.byCode as Map<string, number[]>;
    for (const [key, versions] of byCode) byCode.set(key, counted(versions, reads));
    const refs = Array.from({ length: 200 }, (_, i) => ({
      code_system: "ICD10CM" as const,
      codes: ["E11.9", codeOf(1000 + i)],
    }));
    const page = run(shared, { policies: { code_refs: { match: "all", refs } }, limit: 100 });
    expect(page.data).toHaveLength(50);
    // E11.9's 50 versions read a few times in all; per ref, 200 x 50.
    expect(reads.n).toBeLessThanOrEqual(4 * 50);
  });

  it("scope lists are read a bounded number of times, however many links are tested", () => {
    const reads = { n: 0 };
    const long = (prefix: string) => Array.from({ length: 200 }, (_, i) => `${prefix}${i}`);
    const policies: PolicyFilter = {
      payer_ids: counted([...long("nope"), "AET", "BCB"], reads),
      lob_ids: counted([...long("nope_"), "AET_commercial_", "BCB_commercial_CA"], reads),
      states: counted(["CA", "NY"], reads),
    };
    const page = run(db, { policies, limit: 100 });
    expect(page.data).toHaveLength(VERSIONS);
    expect(reads.n).toBeLessThanOrEqual(3 * 210);
  });

  it("listPayers and listLobs read their query lists a bounded number of times", () => {
    const reads = { n: 0 };
    const lobs = counted<LobCategory>(["medicaid", "medicare_part_b", "commercial"], reads);
    listPayers(db, { lobs });
    listLobs(db, { lobs, payer_ids: counted(["AET", "CMS"], reads) });
    expect(reads.n).toBeLessThanOrEqual(3 * 5);
  });
});

// The compiled matchers must say exactly what the rules' literal reading says.
const literalRef = (v: PolicyRecord, ref: CodeReference): boolean => {
  const keys = new Set(listRefKeys(ref));
  const rels = ref.relationship ?? null;
  return v.codes.some((c) => keys.has(c.key) && (rels === null || rels.includes(c.relationship)));
};
const literalRefs = (v: PolicyRecord, f: CodeRefFilter): boolean =>
  (f.match ?? "any") === "all"
    ? f.refs.every((r) => literalRef(v, r))
    : f.refs.some((r) => literalRef(v, r));
const literalScope = (links: readonly LinkRecord[], f: PolicyFilter): boolean =>
  links.some(
    ({ lob }) =>
      (!f.payer_ids || f.payer_ids.includes(lob.payer_id)) &&
      (!f.lobs || f.lobs.includes(lob.lob)) &&
      (!f.lob_ids || f.lob_ids.some((v) => matchesLobId(v, lob))) &&
      (!f.states || lob.state === null || f.states.includes(lob.state as never)),
  );

describe("compiled matchers agree with the rules read literally (property)", () => {
  const small = rulesDb(
    Array.from({ length: 12 }, (_, v) =>
      policy(`eq/p${v}/2020-01-01`, {
        codes: [
          code("ICD10CM", codeOf(v % 7), ["COVERS", "DOES_NOT_COVER", "REFERENCES"][v % 3]),
          code("CPT", String(97110 + (v % 4)), ["REFERENCES", "COVERS"][v % 2]),
          code("ICD10CM", codeOf((v + 3) % 7).toLowerCase(), "COVERS"),
        ],
        applicability: [
          link(LOBS[v % LOBS.length]!.lob_id),
          link(LOBS[(v * 3) % LOBS.length]!.lob_id),
        ],
      }),
    ),
  );
  const rel = fc.constantFrom("COVERS", "DOES_NOT_COVER", "REFERENCES" as const);
  const ref = fc.record({
    code_system: fc.constantFrom("ICD10CM", "CPT" as const),
    codes: fc.array(
      fc.oneof(
        fc.integer({ min: 0, max: 8 }).map(codeOf),
        fc.integer({ min: 0, max: 6 }).map((i) => String(97110 + i)),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    relationship: fc.option(fc.array(rel, { maxLength: 3 }), { nil: undefined }),
  });
  it("code refs, any and all", () => {
    fc.assert(
      fc.property(
        fc.record({
          match: fc.constantFrom("any", "all" as const),
          refs: fc.array(ref, { minLength: 1, maxLength: 4 }),
        }),
        (filter) => {
          for (const v of small.policies)
            expect(matchesCodeRefs(v, filter)).toBe(literalRefs(v, filter));
        },
      ),
    );
  });
  it("scope", () => {
    const ids = [...LOBS.map((l) => l.lob_id), "AET_commercial_", "UHC_commercial_", "X_"];
    const scope = fc.record(
      {
        payer_ids: fc.array(fc.constantFrom("AET", "BCB", "CMS", "UHC", "nope"), { maxLength: 3 }),
        lobs: fc.array(fc.constantFrom<LobCategory>("commercial", "medicaid", "medicare_part_b"), {
          maxLength: 2,
        }),
        lob_ids: fc.array(fc.constantFrom(...ids), { maxLength: 3 }),
        states: fc.array(fc.constantFrom("CA", "NY", "TX" as const), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(scope, (filter) => {
        for (const v of small.policies) {
          const links = selectLinks(v, { retired: true }, "2026-06-01");
          expect(matchesScope(links, filter)).toBe(literalScope(links, filter));
        }
      }),
    );
  });
});
