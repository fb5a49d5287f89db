import { describe, expect, it } from "vitest";
import { buildUpdatesRequest } from "../../../src/api/endpoints.js";
import { handleApiRequest } from "../../../src/engine/router.js";
import { classifyChange, DEFAULT_UPDATE_DAYS, listUpdates } from "../../../src/engine/updates.js";
import { buildDb, policy } from "../../helpers/build-db.js";

const TODAY = "2026-06-01";
const at = (lob_id: string, from: string, to: string | null = null) => ({ lob_id, from, to });

const db = buildDb({
  payers: [
    { payer_id: "P1", display_name: "beta" },
    { payer_id: "P2", display_name: "Alpha" },
    { payer_id: "P3", display_name: "alpha" },
  ],
  lobs: [
    { lob_id: "L1", payer_id: "P1", lob: "commercial", state: null },
    { lob_id: "L1b", payer_id: "P1", lob: "medicaid", state: "CA" },
    { lob_id: "L2", payer_id: "P2", lob: "commercial", state: null },
    { lob_id: "L3", payer_id: "P3", lob: "commercial", state: null },
  ],
  policies: [
    // A series: the first version is "new", later ones "updated".
    policy("s/a/2026-04-01", {
      effective_to_date: "2026-05-15",
      applicability: [at("L1", "2026-04-01", "2026-05-15")],
    }),
    policy("s/a/2026-05-15", { applicability: [at("L1", "2026-05-15"), at("L1b", "2026-05-15")] }),
    // Boundaries of the default 30-day look-back (2026-05-02 .. 2026-06-01).
    policy("s/edge-in/2026-05-02", { applicability: [at("L2", "2026-05-02")] }),
    policy("s/edge-out/2026-05-01", { applicability: [at("L2", "2026-05-01")] }),
    policy("s/today/2026-06-01", {
      applicability: [at("L2", "2026-06-01"), at("L1", "2020-01-01", "2021-01-01")],
    }),
    policy("s/future/2026-06-02", { applicability: [at("L2", "2026-06-02")] }),
    // Same day, payers whose names tie case-insensitively: then policy id, then payer id.
    policy("s/tie/2026-05-20", { applicability: [at("L3", "2026-05-20"), at("L2", "2026-05-20")] }),
    // An old predecessor makes the in-window version "updated".
    policy("s/old/2019-01-01", {
      effective_to_date: "2026-05-30",
      applicability: [at("L3", "2019-01-01", "2026-05-30")],
    }),
    policy("s/old/2026-05-30", { applicability: [at("L3", "2026-05-30")] }),
    // No link, no payer: no item.
    policy("s/orphan/2026-05-25"),
  ],
});

const rows = (days?: number) =>
  listUpdates(db, { limit: 100, ...(days === undefined ? {} : { days }) }, TODAY).data.map(
    (u) => `${u.effective_from_date} ${u.payer_id} ${u.policy_id} ${u.change_type}`,
  );

describe("listUpdates (rules: Updates)", () => {
  it("defaults to a 30-day look-back", () => expect(DEFAULT_UPDATE_DAYS).toBe(30));

  it("lists today - days <= from <= today, one row per payer ever linked, in the rule's order", () => {
    expect(rows()).toEqual([
      "2026-06-01 P2 s/today/2026-06-01 new",
      "2026-06-01 P1 s/today/2026-06-01 new",
      "2026-05-30 P3 s/old/2026-05-30 updated",
      "2026-05-20 P2 s/tie/2026-05-20 new",
      "2026-05-20 P3 s/tie/2026-05-20 new",
      "2026-05-15 P1 s/a/2026-05-15 updated",
      "2026-05-02 P2 s/edge-in/2026-05-02 new",
    ]);
  });

  it.each([
    { days: 1, first: "2026-06-01", last: "2026-06-01", count: 2 },
    { days: 2, first: "2026-06-01", last: "2026-05-30", count: 3 },
    { days: 31, first: "2026-06-01", last: "2026-05-01", count: 8 },
    { days: 365, first: "2026-06-01", last: "2026-04-01", count: 9 },
  ])("days=$days reaches back to $last", ({ days, first, last, count }) => {
    const r = rows(days);
    expect(r).toHaveLength(count);
    expect(r[0]?.slice(0, 10)).toBe(first);
    expect(r.at(-1)?.slice(0, 10)).toBe(last);
  });

  it.each([
    { id: "s/a/2026-04-01", expected: "new" },
    { id: "s/a/2026-05-15", expected: "updated" },
    { id: "s/old/2019-01-01", expected: "new" },
    { id: "s/old/2026-05-30", expected: "updated" },
    { id: "s/edge-in/2026-05-02", expected: "new" },
  ])("change_type of $id is $expected", ({ id, expected }) => {
    expect(classifyChange(db, db.byId.get(id)!)).toBe(expected);
  });

  it("items have the spec's fields, the payer's display name and the version's file_url", () => {
    expect(listUpdates(db, { limit: 1 }, TODAY).data[0]).toStrictEqual({
      policy_id: "s/today/2026-06-01",
      policy_number: "today",
      title: "Title of s/today/2026-06-01",
      effective_from_date: "2026-06-01",
      change_type: "new",
      payer_id: "P2",
      payer_display_name: "Alpha",
      file_url: "https://example.org/s/today/2026-06-01",
    });
  });

  it("pages with limit/offset and has_more", () => {
    const page = listUpdates(db, { limit: 2, offset: 2 }, TODAY);
    expect(page.data.map((d) => d.policy_id)).toEqual(["s/old/2026-05-30", "s/tie/2026-05-20"]);
    expect(page).toMatchObject({ limit: 2, offset: 2, has_more: true });
  });
});

describe("GET /v1/policies/updates through the router", () => {
  const ctx = { db, today: TODAY, linkFor: () => "file:///x" };
  it.each([
    { query: { days: 0 }, loc: ["query", "days"] },
    { query: { days: 366 }, loc: ["query", "days"] },
    { query: { limit: 0 }, loc: ["query", "limit"] },
  ])("422 for $query", ({ query, loc }) => {
    const res = handleApiRequest(ctx, buildUpdatesRequest(query));
    expect(res.status).toBe(422);
    expect((res.body as { detail: Array<{ loc: unknown }> }).detail[0]?.loc).toEqual(loc);
  });

  it("days travels as the `days` query parameter", () => {
    const res = handleApiRequest(ctx, {
      method: "GET",
      path: "/v1/policies/updates",
      query: [["days", "1"]],
    });
    expect((res.body as { data: unknown[] }).data).toHaveLength(2);
  });
});
