import { describe, expect, it } from "vitest";
import {
  FilterRequest,
  formatDetailLines,
  formatValidationDetail,
  safeParseBounded,
  TOO_MANY,
  type ValidationErrorItem,
} from "../../../src/contract/index.js";

function detailOf(body: unknown): ValidationErrorItem[] {
  const result = FilterRequest.safeParse(body, { reportInput: true });
  if (result.success) throw new Error(`expected ${JSON.stringify(body)} to fail`);
  return formatValidationDetail(result.error, body, ["body"]);
}

const ref = { code_system: "CPT", codes: ["97110"] };

describe("formatValidationDetail: the spec's 422 detail[] for the filter body", () => {
  it.each<{ name: string; body: unknown; expected: Array<Partial<ValidationErrorItem>> }>([
    {
      name: "limit above 100",
      body: { limit: 101 },
      expected: [
        {
          loc: ["body", "limit"],
          msg: "Input should be less than or equal to 100",
          type: "less_than_equal",
          input: 101,
        },
      ],
    },
    {
      name: "limit 0",
      body: { limit: 0 },
      expected: [
        {
          loc: ["body", "limit"],
          msg: "Input should be greater than or equal to 1",
          type: "greater_than_equal",
          input: 0,
        },
      ],
    },
    {
      name: "a huge limit: one message, not zod's safe-integer one too",
      body: { limit: 1e20 },
      expected: [{ loc: ["body", "limit"], type: "less_than_equal" }],
    },
    {
      name: "negative offset",
      body: { offset: -1 },
      expected: [{ loc: ["body", "offset"], type: "greater_than_equal", input: -1 }],
    },
    {
      name: "fractional limit",
      body: { limit: 2.5 },
      expected: [{ loc: ["body", "limit"], type: "int_from_float", input: 2.5 }],
    },
    {
      name: "limit as text",
      body: { limit: "ten" },
      expected: [{ loc: ["body", "limit"], type: "int_parsing", input: "ten" }],
    },
    {
      name: "unknown top-level field",
      body: { page: 2 },
      expected: [
        {
          loc: ["body", "page"],
          msg: "Extra inputs are not permitted",
          type: "extra_forbidden",
          input: 2,
        },
      ],
    },
    {
      name: "unknown field in policies",
      body: { policies: { text: "x" } },
      expected: [{ loc: ["body", "policies", "text"], type: "extra_forbidden", input: "x" }],
    },
    {
      name: "unknown field in code_refs",
      body: { policies: { code_refs: { refs: [ref], mode: "all" } } },
      expected: [{ loc: ["body", "policies", "code_refs", "mode"], type: "extra_forbidden" }],
    },
    {
      name: "unknown field in a ref",
      body: { policies: { code_refs: { refs: [ref, { ...ref, system: "CPT" }] } } },
      expected: [
        { loc: ["body", "policies", "code_refs", "refs", 1, "system"], type: "extra_forbidden" },
      ],
    },
    {
      name: "unknown field in effective_date",
      body: { policies: { effective_date: { from: "2024-01-01" } } },
      expected: [{ loc: ["body", "policies", "effective_date", "from"], type: "extra_forbidden" }],
    },
    {
      name: "bad sort enum",
      body: { sort: "newest" },
      expected: [{ loc: ["body", "sort"], type: "enum", input: "newest" }],
    },
    {
      name: "bad match enum",
      body: { policies: { code_refs: { match: "some", refs: [ref] } } },
      expected: [
        {
          loc: ["body", "policies", "code_refs", "match"],
          msg: "Input should be 'any' or 'all'",
          type: "enum",
        },
      ],
    },
    {
      name: "bad code system (ICD10PCS is not a filter system)",
      body: {
        policies: { code_refs: { refs: [{ code_system: "ICD10PCS", codes: ["0B110F4"] }] } },
      },
      expected: [
        { loc: ["body", "policies", "code_refs", "refs", 0, "code_system"], type: "enum" },
      ],
    },
    {
      name: "bad relationship",
      body: { policies: { code_refs: { refs: [{ ...ref, relationship: ["EXCLUDES"] }] } } },
      expected: [
        { loc: ["body", "policies", "code_refs", "refs", 0, "relationship", 0], type: "enum" },
      ],
    },
    {
      name: "bad state code (lower case is not in the list)",
      body: { policies: { states: ["CA", "ca"] } },
      expected: [{ loc: ["body", "policies", "states", 1], type: "enum", input: "ca" }],
    },
    {
      name: "bad lob category",
      body: { policies: { lobs: ["medicare"] } },
      expected: [{ loc: ["body", "policies", "lobs", 0], type: "enum" }],
    },
    {
      name: "impossible date",
      body: { policies: { effective_date: { start: "2024-02-30" } } },
      expected: [
        {
          loc: ["body", "policies", "effective_date", "start"],
          msg: "Input should be a valid date in the format YYYY-MM-DD",
          type: "date_parsing",
          input: "2024-02-30",
        },
      ],
    },
    {
      name: "date in another shape",
      body: { policies: { effective_date: { end: "01/02/2024" } } },
      expected: [{ loc: ["body", "policies", "effective_date", "end"], type: "date_parsing" }],
    },
    {
      name: "empty refs",
      body: { policies: { code_refs: { refs: [] } } },
      expected: [
        {
          loc: ["body", "policies", "code_refs", "refs"],
          msg: "List should have at least 1 item",
          type: "too_short",
          input: [],
        },
      ],
    },
    {
      name: "empty codes",
      body: { policies: { code_refs: { refs: [{ code_system: "CPT", codes: [] }] } } },
      expected: [{ loc: ["body", "policies", "code_refs", "refs", 0, "codes"], type: "too_short" }],
    },
    {
      name: "refs missing",
      body: { policies: { code_refs: { match: "any" } } },
      expected: [
        {
          loc: ["body", "policies", "code_refs", "refs"],
          msg: "Field required",
          type: "missing",
          input: { match: "any" },
        },
      ],
    },
    {
      name: "wrong types",
      body: { policies: { retired: "yes", q: 5 }, include_applicability: 1 },
      expected: [
        { loc: ["body", "policies", "q"], type: "string_type", input: 5 },
        { loc: ["body", "policies", "retired"], type: "bool_type", input: "yes" },
        { loc: ["body", "include_applicability"], type: "bool_type", input: 1 },
      ],
    },
    {
      name: "body not an object",
      body: [1],
      expected: [{ loc: ["body"], type: "model_type" }],
    },
    {
      name: "several problems at once, each reported",
      body: { limit: 500, offset: -2, extra: true },
      expected: [
        { loc: ["body", "limit"], type: "less_than_equal" },
        { loc: ["body", "offset"], type: "greater_than_equal" },
        { loc: ["body", "extra"], type: "extra_forbidden" },
      ],
    },
  ])("$name", ({ body, expected }) => {
    const detail = detailOf(body);
    expect(detail).toHaveLength(expected.length);
    expected.forEach((e, i) => expect(detail[i]).toMatchObject(e));
    // Every item has the spec's required keys.
    for (const d of detail) {
      expect(Array.isArray(d.loc)).toBe(true);
      expect(typeof d.msg).toBe("string");
      expect(typeof d.type).toBe("string");
    }
  });

  it.each([
    {},
    { policies: null },
    { policies: { q: null, code_refs: null, states: null, effective_date: null, retired: null } },
    { policies: { effective_date: { start: "2024-02-29", end: null } } },
    { policies: { code_refs: { refs: [{ ...ref, relationship: null }] } } },
    { limit: 1, offset: 0 },
    { limit: 100 },
  ])("accepts %j", (body) => {
    expect(FilterRequest.safeParse(body).success).toBe(true);
  });
});

describe("formatDetailLines", () => {
  it("renders `loc: msg` with dots, indexes included", () => {
    expect(
      formatDetailLines([
        { loc: ["body", "policies", "states", 0], msg: "Input should be one of AL", type: "enum" },
        { loc: ["body", "limit"], msg: "Too big", type: "less_than_equal" },
      ]),
    ).toEqual(["body.policies.states.0: Input should be one of AL", "body.limit: Too big"]);
  });
});

describe("safeParseBounded: input with more problems than zod can gather", () => {
  it("a body with 130,000 bad codes in one ref is one 422 item at the root, not a crash", () => {
    const body = {
      policies: {
        code_refs: {
          refs: [{ code_system: "CPT", codes: Array.from({ length: 130_000 }, () => 0) }],
        },
      },
    };
    expect(() => FilterRequest.safeParse(body)).toThrow(RangeError);
    const result = safeParseBounded(FilterRequest, body);
    expect(result.success).toBe(false);
    if (result.success) return;
    const detail = formatValidationDetail(result.error, body, ["body"]);
    expect(detail).toEqual([{ loc: ["body"], msg: TOO_MANY, type: "value_error", input: body }]);
  });

  it("anything else is zod's own answer", () => {
    expect(safeParseBounded(FilterRequest, { limit: 0 }).success).toBe(false);
    expect(safeParseBounded(FilterRequest, { limit: 5 })).toMatchObject({
      success: true,
      data: { limit: 5 },
    });
  });
});
