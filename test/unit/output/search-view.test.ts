import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { Envelope, Policy } from "../../../src/contract/index.js";
import { parseFields } from "../../../src/output/fields.js";
import { pickKeys } from "../../../src/output/list.js";
import { renderPolicyTable } from "../../../src/output/policies.js";
import {
  chooseSearchColumns,
  describeUnmatchedWords,
  flattenPolicy,
  readSearchShape,
  widenSearchBody,
} from "../../../src/output/search-view.js";
import { cutText, renderTable } from "../../../src/output/table.js";

const io = (columns: number) => ({ columns, chalk: new Chalk({ level: 0 }) });

const policy = (over: Partial<Policy> = {}): Policy => ({
  policy_id: "cms-lcd/L1/2026-01-01",
  policy_number: "L1",
  title: "Outpatient Physical Therapy",
  effective_from_date: "2026-01-01",
  effective_to_date: null,
  file_url: "https://example.org/x.pdf",
  file_type: "pdf",
  listing_url: "https://example.org/",
  summary: null,
  score: null,
  applicability: [
    { payer_ids: ["CMS"], payer_names: ["Medicare"], lobs: ["medicare_part_b"], state: "CA" },
    { payer_ids: ["CMS"], payer_names: ["Medicare"], lobs: ["medicare_part_b"], state: "NF" },
  ],
  code_groups: [
    { code_system: "CPT", relationship: "COVERS", category: null, codes: ["97110"] },
    { code_system: "CPT", relationship: "DOES_NOT_COVER", category: null, codes: ["97014"] },
  ],
  ...over,
});

const CODE_BODY = {
  policies: { code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] } },
};

describe("widenSearchBody: what a table or CSV needs", () => {
  it.each<[string, Record<string, unknown>, string[] | undefined, Record<string, unknown>]>([
    [
      "codes: applicability and code groups",
      CODE_BODY,
      undefined,
      { ...CODE_BODY, include_applicability: true, include_code_groups: true },
    ],
    [
      "no codes: applicability only",
      { policies: { states: ["CA"] } },
      undefined,
      { policies: { states: ["CA"] }, include_applicability: true },
    ],
    ["--fields without derived columns: nothing more", CODE_BODY, ["policy_id"], CODE_BODY],
    [
      "--fields verdict: code groups only",
      CODE_BODY,
      ["verdict"],
      { ...CODE_BODY, include_code_groups: true },
    ],
  ])("%s", (_name, body, fields, wide) => {
    expect(widenSearchBody(body, fields, "table")).toEqual(wide);
  });
});

describe("chooseSearchColumns", () => {
  it.each([
    [{}, ["policy_id", "title", "policy_number", "scope", "status", "effective_from_date"]],
    [
      { ...CODE_BODY, include_code_groups: true },
      [
        "policy_id",
        "title",
        "policy_number",
        "scope",
        "verdict",
        "status",
        "effective_from_date",
        "code_groups",
      ],
    ],
    [
      { policies: { q: "therapy" }, include_applicability: true },
      [
        "policy_id",
        "title",
        "policy_number",
        "scope",
        "status",
        "effective_from_date",
        "score",
        "applicability",
      ],
    ],
  ])("table for %j", (body, columns) => {
    expect(chooseSearchColumns("table", readSearchShape(body))).toEqual(columns);
  });

  it("the TO column only when some version has an end date", () => {
    const shape = readSearchShape({});
    const retired = policy({ effective_to_date: "2026-06-01" });
    expect(chooseSearchColumns("table", shape, [policy()])).not.toContain("effective_to_date");
    expect(chooseSearchColumns("table", shape, [retired])).toContain("effective_to_date");
  });
});

describe("flattenPolicy: CSV rows without embedded JSON", () => {
  it("payers, scopes paired with their payer, status and the verdict as flat values; extra server fields kept", () => {
    const shape = readSearchShape(CODE_BODY);
    const columns = chooseSearchColumns("csv", shape);
    const row = flattenPolicy(
      { ...policy(), extra: 1 } as Policy,
      columns,
      shape,
      "2026-06-01",
      true,
    );
    expect(row).toMatchObject({
      payer_ids: ["CMS"],
      payer_names: ["Medicare"],
      scopes: "CMS medicare_part_b CA;CMS medicare_part_b NF",
      status: "active",
      verdict: "covers",
      extra: 1,
    });
    expect(row).not.toHaveProperty("applicability");
    // No words were given: the score column would be empty in every row.
    expect(row).not.toHaveProperty("score");
  });
});

describe("describeUnmatchedWords", () => {
  const page = (scores: Array<number | null>, offset = 0): Envelope<Policy> => ({
    data: scores.map((score) => policy({ score })),
    limit: 20,
    offset,
    has_more: false,
  });
  const words = { policies: { q: "zzz" } };
  it.each<[string, Record<string, unknown>, Envelope<Policy>, boolean]>([
    ["no item scored", words, page([null, null]), true],
    ["an item scored", words, page([1.2, null]), false],
    ["no words", {}, page([null]), false],
    ["a later page cannot tell", words, page([null], 20), false],
    ["another sort never scores", { ...words, sort: "title_asc" }, page([null]), false],
    ["an empty list says so already", words, page([]), false],
  ])("%s", (_name, body, p, says) => {
    const text = describeUnmatchedWords(body, p);
    expect(Boolean(text)).toBe(says);
    if (says) expect(text).toContain("the list shows what passed the other filters");
  });
});

describe("parseFields", () => {
  const names = { item: ["a", "b"], columns: ["a", "b", "c"] };
  it("comma lists and repeats, any case, duplicates once", () => {
    expect(parseFields(["A,c", "a"], names, "table")).toEqual(["a", "c"]);
  });
  it("json takes the item's fields only: a bad name lists the valid ones", () => {
    expect(() => parseFields(["c"], names, "json")).toThrow(/'c' is not among the fields/);
    try {
      parseFields(["c"], names, "ndjson");
    } catch (err) {
      expect((err as { suggestion: string; exitCode: number }).suggestion).toContain("a, b.");
      expect((err as { exitCode: number }).exitCode).toBe(2);
    }
  });
  it("an empty list is an error", () => {
    expect(() => parseFields([","], names, "csv")).toThrow(/at least one name/);
  });
  it("pickKeys keeps the order asked and leaves absent keys out", () => {
    expect(pickKeys({ a: 1, b: 2 }, ["b", "z", "a"])).toEqual({ b: 2, a: 1 });
  });
});

describe("renderTable with a nowrap lead column", () => {
  type Row = { id: string; title: string; n: string };
  const columns = [
    { header: "ID", value: (r: Row) => r.id, nowrap: true },
    { header: "TITLE", value: (r: Row) => r.title, flex: true, min: 10, beside: true },
    { header: "N", value: (r: Row) => r.n },
  ];
  const rows: Row[] = [
    { id: "a-rather-long-policy-identifier/2026-01-01", title: "A title of some length", n: "1" },
    { id: "short/1", title: "Short", n: "2" },
  ];

  it("wide enough: one flat table, the id whole", () => {
    const out = renderTable(columns, rows, io(100)).split("\n");
    expect(out[0]).toMatch(/^ID\s+TITLE\s+N$/);
    expect(out[1]).toMatch(/^a-rather-long-policy-identifier\/2026-01-01\s+A title/);
  });

  it("too narrow: the id on its own line, the title beside it cut, the rest under it", () => {
    const out = renderTable(columns, rows, io(56));
    expect(out).toBe(
      [
        "ID  TITLE",
        "  N",
        "a-rather-long-policy-identifier/2026-01-01  A title of …",
        "  1",
        "short/1  Short",
        "  2",
      ].join("\n"),
    );
  });

  it("no room for the title beside the id: it goes under it", () => {
    const out = renderTable(columns, rows, io(44)).split("\n");
    expect(out[2]).toBe("a-rather-long-policy-identifier/2026-01-01");
    expect(out[3]).toBe("  A title of some length");
  });

  it("cutText cuts by terminal columns, with an ellipsis", () => {
    expect(cutText("理学療法の保険", 6)).toBe("理学…");
    expect(cutText("short", 10)).toBe("short");
  });
});

describe("renderPolicyTable", () => {
  it("verdict on the asked codes, each scope with its payer, STATUS not STATE", () => {
    const shape = readSearchShape(CODE_BODY);
    const out = renderPolicyTable([policy()], io(200), { today: "2026-06-01", shape });
    const [header, row] = out.split("\n");
    expect(header).toMatch(/^POLICY ID\s+TITLE\s+NUMBER\s+PAYER: SCOPE\s+VERDICT\s+STATUS\s+FROM$/);
    expect(row).toMatch(/Medicare: medicare_part_b · CA NF\s+covers\s+active\s+2026-01-01$/);
  });

  it("a words search keeps its score column, blank where nothing matched", () => {
    const shape = readSearchShape({ policies: { q: "zzz" } });
    const out = renderPolicyTable([policy()], io(200), { today: "2026-06-01", shape });
    expect(out.split("\n")[0]).toMatch(/SCORE$/);
    expect(out.split("\n")[1]).toMatch(/2026-01-01$/);
  });
});
