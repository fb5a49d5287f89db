import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as zod from "zod";
import {
  FAST_PARSE_FILE,
  renderFastParsers,
  renderParsers,
  type Schema as GeneratorSchema,
} from "../../../scripts/generate-fast-parse.js";
import * as enums from "../../../src/contract/enums.js";
import { FAIL, fastParserOf } from "../../../src/contract/fast-parse.js";
import * as contract from "../../../src/contract/index.js";
import * as requests from "../../../src/contract/requests.js";
import * as responses from "../../../src/contract/responses.js";
import * as config from "../../../src/config/keys.js";
import { bundledDatasetPath, loadDataset } from "../../../src/dataset/load.js";
import { handleApiRequest } from "../../../src/engine/router.js";

type Schema = GeneratorSchema & {
  safeParse(input: unknown): { success: boolean; data?: unknown };
};

const NAMED = Object.entries({
  ...enums,
  ...requests,
  ...responses,
  ...config,
} as Record<string, unknown>)
  .filter(([, value]) => typeof value === "object" && value !== null && "_zod" in value)
  .map(([name, value]) => [name, value as Schema] as const);

const isoDay = fc
  .date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 4 }),
  fc.constant({}),
  fc.constant([]),
  isoDay,
  fc.constant("2024-02-30"),
);

/**
 * A value spelled out: each object's keys in their order (those holding undefined too), each
 * primitive with its type. (toStrictEqual would compare a `constructor` key's values as the
 * objects' classes.)
 */
function layout(value: unknown): unknown {
  if (Array.isArray(value)) return ["array", value.map(layout)];
  if (typeof value === "object" && value !== null)
    return [
      Object.getPrototypeOf(value) === Object.prototype ? "object" : "object with a prototype",
      Object.keys(value).map((k) => [k, layout((value as Record<string, unknown>)[k])]),
    ];
  return [typeof value, Object.is(value, -0) ? "-0" : String(value)];
}

/** With an own `__proto__` key, as JSON.parse makes one. */
function withProto(object: Record<string, unknown>, value: unknown): Record<string, unknown> {
  Object.defineProperty(object, "__proto__", {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return object;
}

/** Values near what `schema` accepts: mostly the right shape, now and then a wrong part. */
function near(schema: GeneratorSchema, depth = 0): fc.Arbitrary<unknown> {
  const def = schema._zod.def;
  let right: fc.Arbitrary<unknown>;
  switch (def.type) {
    case "string":
      right = fc.oneof(fc.string({ maxLength: 6 }), fc.constant(""), isoDay);
      break;
    case "number":
      right = fc.oneof(
        fc.integer({ min: -2, max: 400 }),
        fc.double({ min: -2, max: 400 }),
        fc.constantFrom(1.5, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), Number.MAX_VALUE),
      );
      break;
    case "boolean":
      right = fc.boolean();
      break;
    case "enum": {
      const values = Object.values(def.entries ?? {}) as string[];
      right = fc.constantFrom(...values, `${values[0]}x`, values[0]!.toLowerCase());
      break;
    }
    case "optional":
      right = fc.oneof(fc.constant(undefined), near(def.innerType!, depth));
      break;
    case "nullable":
      right = fc.oneof(fc.constant(null), near(def.innerType!, depth));
      break;
    case "union":
      right = fc.oneof(...def.options!.map((o) => near(o, depth)));
      break;
    case "array":
      right = fc.array(near(def.element!, depth + 1), { maxLength: depth > 2 ? 1 : 3 });
      break;
    case "object": {
      const shape = def.shape ?? {};
      const keys = Object.keys(shape);
      right = fc
        .tuple(
          fc.record(Object.fromEntries(keys.map((k) => [k, near(shape[k]!, depth + 1)])), {
            requiredKeys: [],
          }),
          fc.shuffledSubarray(keys, { minLength: keys.length }),
          fc.option(fc.constantFrom("extra", "__proto__", "constructor"), { freq: 2 }),
          anyValue,
        )
        .map(([record, order, extra, value]) => {
          // Keys in a random order: zod's output has the shape's.
          const out: Record<string, unknown> = {};
          for (const k of order) if (k in record) out[k] = record[k];
          if (extra === "__proto__") return withProto(out, value);
          if (extra !== null) out[extra] = value;
          return out;
        });
      break;
    }
    case "record":
      right = fc
        .tuple(
          fc.dictionary(fc.string({ maxLength: 4 }), near(def.valueType!, depth + 1), {
            maxKeys: 3,
          }),
          fc.constantFrom(
            "plain",
            "null prototype",
            "symbol key",
            "__proto__",
            "a Map",
            "a Date",
            "hidden key",
          ),
          anyValue,
        )
        .map(([record, kind, value]) => {
          if (kind === "null prototype") return Object.assign(Object.create(null), record);
          if (kind === "symbol key") return { ...record, [Symbol("k")]: value };
          if (kind === "__proto__") return withProto({ ...record }, value);
          if (kind === "a Map") return new Map(Object.entries(record));
          if (kind === "a Date") return Object.assign(new Date(0), record);
          if (kind === "hidden key")
            return Object.defineProperty({ ...record }, "hidden", { value, enumerable: false });
          return record;
        });
      break;
    default:
      right = fc.jsonValue({ maxDepth: 2 });
  }
  // Mostly right: a wrong part anywhere fails the whole value, and a schema has dozens of parts.
  return fc.oneof({ weight: 40, arbitrary: right }, { weight: 1, arbitrary: anyValue });
}

describe("the build-time parsers of the contract's schemas", () => {
  it("src/contract/fast-parse.generated.ts is what the generator makes now", async () => {
    expect(readFileSync(FAST_PARSE_FILE, "utf8")).toBe(await renderFastParsers());
  });

  it("every schema of the contract has one", () => {
    expect(NAMED.length).toBeGreaterThan(30);
    for (const [name, schema] of NAMED) expect(fastParserOf(schema), name).toBeDefined();
  });

  it.each(NAMED.map(([name, schema]) => ({ name, schema })))(
    "$name: accepts what zod accepts, and returns what zod returns",
    ({ schema }) => {
      const parse = fastParserOf(schema)!;
      fc.assert(
        fc.property(near(schema), (input) => {
          const expected = schema.safeParse(input);
          const got = parse(input);
          if (got !== FAIL) {
            expect(expected.success).toBe(true);
            // Keys in order (a request is sent as zod returns it), undefined values included.
            expect(layout(got)).toEqual(layout(expected.data));
          } else expect(expected.success).toBe(false);
        }),
        { numRuns: 300 },
      );
    },
  );

  it("a search's request and answer take the fast path, as a one-shot search's do", async () => {
    const { db } = await loadDataset(bundledDatasetPath());
    const request = {
      policies: {
        code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
        states: ["CA"],
        effective_date: { start: "2024-01-01", end: null },
      },
      include_applicability: true,
      include_code_groups: true,
    };
    const res = handleApiRequest(
      { db, today: "2026-06-01", linkFor: () => "" },
      { method: "POST", path: "/v1/policies/filter", query: [], body: request },
    );
    expect(res.status).toBe(200);
    const page = JSON.parse(JSON.stringify(res.body)) as { data: unknown[] };
    expect(page.data.length).toBeGreaterThan(0);
    expect(fastParserOf(requests.FilterRequest)!(request)).not.toBe(FAIL);
    expect(fastParserOf(responses.PolicyPage)!(page)).not.toBe(FAIL);
    // safeParseBounded answers from it, with zod's value.
    expect(contract.safeParseBounded(responses.PolicyPage, page)).toStrictEqual(
      responses.PolicyPage.safeParse(page),
    );
  });

  it("an input with a problem still gets zod's issues", () => {
    const bad = { policies: { states: ["XX"] }, limit: 0 };
    const result = contract.safeParseBounded(requests.FilterRequest, bad);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual([
      "policies.states.0",
      "limit",
    ]);
  });
});

describe("what the generator leaves to zod", () => {
  const z = zod;
  it.each([
    ["a string format (`z.email()`)", z.email(), "not generated: string format email"],
    [
      "`.exactOptional()` (a key present with undefined is refused)",
      z.object({ a: z.string().exactOptional() }),
      "not generated: exact optional",
    ],
    [
      "a union with an option it cannot express (a later option would win)",
      z.union([z.string().trim(), z.string()]),
      "not generated: union with an option not generated",
    ],
    ["a check it does not know", z.string().regex(/a/), "not generated: check string_format"],
    [
      "a union with a record whose values it cannot express",
      z.union([z.record(z.string(), z.string().trim()), z.unknown()]),
      "not generated: union with an option not generated",
    ],
    [
      "a union with a refinement it does not know",
      z.union([z.object({ a: z.string().refine(() => true) }), z.looseObject({ a: z.string() })]),
      "not generated: union with an option not generated",
    ],
    [
      "a record whose keys are not any string",
      z.record(z.enum(["a", "b"]), z.string()),
      "not generated: record keys other than any string",
    ],
  ])("%s", (_, schema, note) => {
    expect(renderParsers([["Example", schema, "m"]])).toContain(note);
  });
});
