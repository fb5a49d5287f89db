import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PolicyPage } from "../../../src/contract/index.js";
import { handleApiRequest, type EngineContext } from "../../../src/engine/router.js";
import { code, LOBS, link, policy, rulesDb } from "./rules-fixture.js";

// Random filter bodies, near the schema and far from it, through the engine's router: each
// gets a 200 or a 422, never an exception (a crash would be a 500 from `serve`).

const db = rulesDb(
  Array.from({ length: 30 }, (_, i) =>
    policy(`f/p${i}/20${10 + (i % 15)}-01-01`, {
      title: `Knee brace ${i % 2 ? "therapy" : "<b>surgery</b>"} &amp; more`,
      summary: i % 3 ? "Physical therapy for the **knee**." : null,
      effective_to_date: i % 4 === 0 ? "2026-01-01" : null,
      codes: [
        code("ICD10CM", `M25.${i % 7}`, ["COVERS", "DOES_NOT_COVER", "REFERENCES"][i % 3]),
        code("CPT", String(97110 + (i % 5))),
      ],
      applicability: [
        link(LOBS[i % LOBS.length]!.lob_id, "2019-01-01", i % 5 ? null : "2025-01-01"),
      ],
    }),
  ),
);
const ctx: EngineContext = { db, today: "2026-06-01", linkFor: () => "" };

const anything = fc.anything({ maxDepth: 3 });
// Mostly well-typed values (so bodies reach the matchers), now and then anything at all.
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: arb, weight: 19 }, { arbitrary: anything, weight: 1 });
const date = fc.oneof(
  fc
    .date({ min: new Date("2000-01-01"), max: new Date("2040-01-01"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.string(),
);
const ref = fc.record(
  {
    code_system: maybe(fc.constantFrom("ICD10CM", "CPT", "HCPCS", "icd10cm")),
    codes: maybe(fc.array(fc.oneof(fc.constantFrom("M25.1", "m251", " 97110 ", ""), fc.string()))),
    relationship: maybe(
      fc.option(fc.array(fc.constantFrom("COVERS", "DOES_NOT_COVER", "REFERENCES", "x"))),
    ),
  },
  { requiredKeys: [] },
);
const policies = fc.record(
  {
    q: maybe(fc.option(fc.oneof(fc.string(), fc.constantFrom("knee therapy", "<b>", "İ")))),
    code_refs: maybe(
      fc.option(
        fc.record(
          { match: maybe(fc.constantFrom("any", "all")), refs: maybe(fc.array(ref)) },
          { requiredKeys: [] },
        ),
      ),
    ),
    lob_ids: maybe(
      fc.option(fc.array(fc.constantFrom(...LOBS.map((l) => l.lob_id), "AET_commercial_"))),
    ),
    payer_ids: maybe(fc.option(fc.array(fc.constantFrom("AET", "BCB", "CMS", "UHC", "")))),
    lobs: maybe(fc.option(fc.array(fc.constantFrom("commercial", "medicaid", "medicare_part_b")))),
    states: maybe(fc.option(fc.array(fc.constantFrom("CA", "NY", "TX", "ZZ")))),
    effective_date: maybe(
      fc.option(fc.record({ start: fc.option(date), end: fc.option(date) }, { requiredKeys: [] })),
    ),
    retired: maybe(fc.option(fc.boolean())),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record(
      {
        policies: maybe(fc.option(policies)),
        sort: maybe(
          fc.constantFrom("relevance", "policy_id_asc", "title_desc", "policy_number_asc", "nope"),
        ),
        limit: maybe(fc.integer({ min: -5, max: 150 })),
        offset: maybe(fc.integer({ min: -5, max: 50 })),
        include_applicability: maybe(fc.boolean()),
        include_code_groups: maybe(fc.boolean()),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: anything },
);

describe("random filter bodies through the engine (property)", () => {
  it("always answer 200 (of the contract's shape) or 422, never throw", () => {
    let answered = 0;
    fc.assert(
      fc.property(body, (raw) => {
        // As the wire carries it: what JSON cannot say is gone.
        const text = JSON.stringify(raw);
        const wire: unknown = text === undefined ? undefined : JSON.parse(text);
        const res = handleApiRequest(ctx, {
          method: "POST",
          path: "/v1/policies/filter",
          query: [],
          body: wire,
        });
        expect([200, 422]).toContain(res.status);
        expect(() => JSON.stringify(res.body)).not.toThrow();
        if (res.status === 200) {
          answered++;
          // The in-process engine's answers must be the contract's shape (ApiClient.send
          // checks them too, and would fail the command).
          expect(PolicyPage.safeParse(JSON.parse(JSON.stringify(res.body))).success).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
    // The bodies reach the matchers and the ranking, not only the validator.
    expect(answered).toBeGreaterThan(100);
  });
});
