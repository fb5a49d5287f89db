import { describe, expect, it } from "vitest";
import type {
  Applicability,
  CodeGroup,
  CodeReference,
  Policy,
} from "../../../src/contract/index.js";
import { buildCodeReport } from "../../../src/views/code-view.js";
import { buildMatrix, combineVerdicts, groupColumns } from "../../../src/views/matrix.js";

const REF: CodeReference = { code_system: "CPT", codes: ["97110"] };

const scope = (payer: string, lobs: string[], state: string | null): Applicability =>
  ({ payer_ids: [payer], payer_names: [payer.toLowerCase()], lobs, state }) as Applicability;

const policy = (
  id: string,
  rel: CodeGroup["relationship"][],
  applicability: Applicability[],
  description?: string,
): Policy =>
  ({
    policy_id: id,
    policy_number: id.split("/")[1],
    title: id,
    effective_from_date: "2024-01-01",
    effective_to_date: null,
    file_url: "",
    file_type: "pdf",
    listing_url: "",
    summary: null,
    applicability,
    code_groups: rel.map((relationship) => ({
      code_system: "CPT",
      relationship,
      category: null,
      codes: ["97110"],
      ...(description ? { descriptions: [description] } : {}),
    })),
  }) as Policy;

const ITEMS = [
  policy("a/NAT/2024-01-01", ["COVERS"], [scope("A", ["commercial"], null)], "Exercise"),
  policy("a/CA/2024-01-01", ["DOES_NOT_COVER"], [scope("A", ["commercial"], "CA")]),
  policy("b/TX/2024-01-01", ["REFERENCES"], [scope("B", ["medicaid"], "TX")]),
  policy("b/BOTH/2024-01-01", ["COVERS", "REFERENCES"], [scope("B", ["medicaid"], "FL")]),
];

const cellsOf = (items: Policy[], asked = {}) =>
  buildMatrix(items, REF, asked, "2026-01-01").cells.map(
    (c) => `${c.payer_id} ${c.lob} ${c.state ?? "US"}: ${c.verdict} ${c.policy_numbers.join(",")}`,
  );

describe("buildMatrix", () => {
  it("nationwide has its own column and folds into every state's cell", () => {
    expect(cellsOf(ITEMS)).toEqual([
      "A commercial US: covers NAT",
      "A commercial CA: mixed CA,NAT",
      "A commercial FL: covers NAT",
      "A commercial TX: covers NAT",
      "B medicaid US: none ",
      "B medicaid CA: none ",
      "B medicaid FL: mixed BOTH",
      "B medicaid TX: mentions TX",
    ]);
  });

  it.each([
    [
      "asked states are the columns, in the order asked",
      { states: ["TX", "CA"] },
      ["US", "TX", "CA"],
    ],
    ["no nationwide scope: no nationwide column", { payerIds: ["b"] }, ["FL", "TX"]],
  ])("%s", (_name, asked, columns) => {
    const m = buildMatrix(ITEMS, REF, asked, null);
    expect(m.states.map((s) => s ?? "US")).toEqual(columns);
  });

  it("rows with no policy in the asked states are left out", () => {
    expect(buildMatrix(ITEMS, REF, { states: ["CA"] }, null).rows.map((r) => r.payer_id)).toEqual([
      "A",
    ]);
  });

  it("--lob narrows the rows", () => {
    expect(buildMatrix(ITEMS, REF, { lobs: ["medicaid"] }, null).rows).toEqual([
      { payer_id: "B", payer_name: "b", lob: "medicaid" },
    ]);
  });

  it("says where coverage varies", () => {
    const { variation } = buildMatrix(ITEMS, REF, {}, null);
    expect(variation.by_state).toEqual([
      {
        payer_id: "A",
        payer_name: "a",
        lob: "commercial",
        verdicts: { mixed: ["CA"], covers: ["FL", "TX"] },
      },
      {
        payer_id: "B",
        payer_name: "b",
        lob: "medicaid",
        verdicts: { none: ["CA"], mixed: ["FL"], mentions: ["TX"] },
      },
    ]);
    expect(variation.by_payer).toEqual([
      { state: "FL", verdicts: { covers: ["A commercial"], mixed: ["B medicaid"] } },
      { state: "TX", verdicts: { covers: ["A commercial"], mentions: ["B medicaid"] } },
    ]);
  });

  it("columns alike in every row are grouped for display", () => {
    const m = buildMatrix(
      [...ITEMS, policy("c/X/2024-01-01", ["COVERS"], [scope("C", ["commercial"], "NV")])],
      REF,
      { states: ["NV", "WA", "OR"] },
      null,
    );
    expect(groupColumns(m).map((g) => g.states.map((s) => s ?? "US"))).toEqual([
      ["US"],
      ["NV"],
      ["WA", "OR"],
    ]);
  });
});

describe("combineVerdicts", () => {
  it.each([
    [[], "none"],
    [["covers", "covers"], "covers"],
    [["covers", "mentions"], "mixed"],
    [["mixed"], "mixed"],
  ] as const)("%j -> %s", (verdicts, expected) => {
    expect(combineVerdicts([...verdicts])).toBe(expected);
  });
});

describe("buildCodeReport", () => {
  it("groups by relationship (a policy under two appears in both), description from the groups", () => {
    const r = buildCodeReport(ITEMS, REF, "2026-01-01", "2026-01-01");
    expect(r.description).toBe("Exercise");
    expect(r.groups.map((g) => [g.relationship, g.policies.map((p) => p.policy_number)])).toEqual([
      ["COVERS", ["NAT", "BOTH"]],
      ["DOES_NOT_COVER", ["CA"]],
      ["REFERENCES", ["BOTH", "TX"]],
    ]);
    expect(r.groups[0]!.policies[0]).toMatchObject({
      scopes: "A commercial US",
      payer_scopes: [{ payer_id: "A", payer_name: "a", scope: "commercial · nationwide" }],
      status: "active",
    });
  });
  it("no description known", () => {
    expect(buildCodeReport(ITEMS.slice(1), REF, "2026-01-01", null).description).toBeNull();
  });
});
