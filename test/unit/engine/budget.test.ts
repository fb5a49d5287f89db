import { describe, expect, it } from "vitest";
import type { FilterRequest } from "../../../src/contract/index.js";
import { BudgetExceeded, createBudget, type Budget } from "../../../src/engine/budget.js";
import { filterPolicies } from "../../../src/engine/filter.js";
import { handleApiRequest } from "../../../src/engine/router.js";
import { getTextIndex } from "../../../src/engine/text-index.js";
import { code, policy, rulesDb } from "./rules-fixture.js";

// A clock that reads the given values in turn, then stays on the last: no real time involved.
function steps(...values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)] as number;
}

const db = rulesDb(
  Array.from({ length: 40 }, (_, i) =>
    policy(`b/p${String(i).padStart(2, "0")}/2020-01-01`, {
      title: `knee ${i % 2 ? "brace" : "surgery"} ${i % 3 ? "therapy" : ""}`,
      summary: "physical therapy for the knee",
      codes: [code("ICD10CM", `M25.${i % 5}`)],
    }),
  ),
);
const TODAY = "2026-06-01";

describe("a request's time budget (checked cooperatively)", () => {
  it("createBudget throws BudgetExceeded once the clock reaches the deadline", () => {
    const budget = createBudget(10, steps(0, 5, 10));
    budget.check();
    expect(() => budget.check()).toThrow(BudgetExceeded);
  });

  it.each<[string, FilterRequest]>([
    [
      "code refs",
      { policies: { code_refs: { refs: [{ code_system: "ICD10CM", codes: ["M25.1"] }] } } },
    ],
    ["scope filters", { policies: { states: ["CA"] } }],
    ["q", { policies: { q: "knee therapy" } }],
  ])("%s: a spent budget stops the engine", (_, request) => {
    const spent: Budget = createBudget(0, () => 0);
    expect(() => filterPolicies(db, request, TODAY, spent)).toThrow(BudgetExceeded);
  });

  it("the router answers 422 at body naming the budget; no budget, no limit", () => {
    const ctx = { db, today: TODAY, linkFor: () => "", budget: createBudget(250, () => 0) };
    ctx.budget = createBudget(250, steps(0, 1000));
    const body = { policies: { q: "knee" } };
    const reply = handleApiRequest(ctx, {
      method: "POST",
      path: "/v1/policies/filter",
      query: [],
      body,
    });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [
        {
          loc: ["body"],
          msg:
            "Request needs more than this server's 250 ms of work per request: narrow it " +
            "(fewer codes, refs or words), or run it in-process with --local",
          type: "too_costly",
          ctx: { budget_ms: 250 },
        },
      ],
    });
    const free = handleApiRequest(
      { db, today: TODAY, linkFor: () => "" },
      { method: "POST", path: "/v1/policies/filter", query: [], body },
    );
    expect(free.status).toBe(200);
  });

  it("a query stopped inside the text index leaves its scratch clean for the next one", () => {
    getTextIndex(db);
    const request: FilterRequest = { policies: { q: "knee brace surgery therapy" }, limit: 100 };
    const expected = filterPolicies(db, request, TODAY);
    // The first term's postings are summed, the second check stops the query.
    expect(() => filterPolicies(db, request, TODAY, createBudget(50, steps(0, 0, 100)))).toThrow(
      BudgetExceeded,
    );
    expect(filterPolicies(db, request, TODAY)).toEqual(expected);
  });
});
