import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "../../../src/engine/compare.js";
import { handleApiRequest, type EngineContext } from "../../../src/engine/router.js";
import { code, LOBS, link, policy, rulesDb } from "./rules-fixture.js";

// Sorting by policy id takes a shortcut (the stores keep versions in id order, so the matching
// positions are already sorted): its pages must be what sorting the matches by id gives.

// Ids whose code-point order differs from a naive or locale order: case, digits, non-ASCII.
const IDS = ["a/Z/2020-01-01", "a/a/2020-01-01", "a/é/2021-01-01", "b/10/2020-01-01"];
const db = rulesDb(
  Array.from({ length: 40 }, (_, i) =>
    policy(i < IDS.length ? IDS[i]! : `p${(i * 7) % 13}/n${i}/20${10 + (i % 15)}-01-01`, {
      title: `Title ${39 - i}`,
      codes: [code("CPT", String(97110 + (i % 3)))],
      applicability: [link(LOBS[i % LOBS.length]!.lob_id, "2019-01-01", null)],
    }),
  ),
);
const ctx: EngineContext = { db, today: "2026-06-01", linkFor: () => "" };

function ids(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (let offset = 0; ; offset += 7) {
    const res = handleApiRequest(ctx, {
      method: "POST",
      path: "/v1/policies/filter",
      query: [],
      body: { ...body, limit: 7, offset },
    });
    expect(res.status).toBe(200);
    const page = res.body as { data: Array<{ policy_id: string }>; has_more: boolean };
    out.push(...page.data.map((p) => p.policy_id));
    if (!page.has_more) return out;
  }
}

describe("sort policy_id_asc / _desc (Ordering rule 3)", () => {
  it("pages in code-point order of the ids, whatever the filter", () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom("97110", "97111", "97112")),
        fc.option(fc.constantFrom("CA", "NY", "TX")),
        fc.constantFrom("policy_id_asc", "policy_id_desc"),
        (cpt, state, sort) => {
          const policies = {
            ...(cpt ? { code_refs: { refs: [{ code_system: "CPT", codes: [cpt] }] } } : {}),
            ...(state ? { states: [state] } : {}),
          };
          const matches = ids({ policies, sort: "title_asc" });
          const expected = [...matches].sort(compareCodePoints);
          if (sort === "policy_id_desc") expected.reverse();
          expect(ids({ policies, sort })).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
