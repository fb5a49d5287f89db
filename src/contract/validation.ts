import * as z from "zod";
import { FAIL, fastParserOf } from "./fast-parse.js";
import type { ValidationErrorItem } from "./responses.js";

type Loc = Array<string | number>;
type Issue = z.core.$ZodIssue;

const TYPE_NAMES: Record<string, [string, string]> = {
  // Every number in the API's requests is an integer (limit, offset, days).
  int: ["int_type", "Input should be a valid integer"],
  number: ["int_type", "Input should be a valid integer"],
  string: ["string_type", "Input should be a valid string"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["model_type", "Input should be a valid dictionary or object"],
};

/**
 * A JSON number literal too large for a double (`1e400`): JSON.parse makes it Infinity, which
 * JSON.stringify prints as `null`. A 422 quotes it as written instead (a string).
 */
export class NumberLiteral {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function quoteList(values: readonly unknown[]): string {
  // Long enums (the 63 state codes) read better unquoted.
  if (values.length > 12) return `one of ${values.map(String).join(", ")}`;
  const quoted = values.map((v) => `'${String(v)}'`);
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

function toItems(issue: Issue, root: unknown, prefix: Loc): ValidationErrorItem[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  const loc: Loc = [...prefix, ...path];
  const input = valueAt(root, issue.path);
  const item = (type: string, msg: string, ctx?: Record<string, unknown>): ValidationErrorItem => ({
    loc,
    msg,
    type,
    input: input === undefined ? null : input,
    ...(ctx ? { ctx } : {}),
  });
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => ({
        loc: [...loc, key],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
        input: valueAt(input, [key]) ?? null,
      }));
    case "invalid_type": {
      if (input === undefined)
        // As FastAPI does: the input of a missing field is the object it is missing from.
        return [
          {
            loc,
            msg: "Field required",
            type: "missing",
            input: valueAt(root, issue.path.slice(0, -1)) ?? null,
          },
        ];
      if (issue.expected === "int" || issue.expected === "number") {
        if (input instanceof NumberLiteral || input === Infinity || input === -Infinity)
          return [item("finite_number", "Input should be a finite number")];
        if (typeof input === "number" && Number.isFinite(input) && !Number.isInteger(input))
          return [
            item(
              "int_from_float",
              "Input should be a valid integer, got a number with a fractional part",
            ),
          ];
        if (typeof input === "string" && !/^\s*[+-]?\d+\s*$/.test(input))
          return [
            item(
              "int_parsing",
              "Input should be a valid integer, unable to parse string as an integer",
            ),
          ];
      }
      const [type, msg] = TYPE_NAMES[issue.expected] ?? [
        `${issue.expected}_type`,
        `Input should be a valid ${issue.expected}`,
      ];
      return [item(type, msg)];
    }
    case "too_big":
      if (issue.origin === "array")
        return [
          item("too_long", `List should have at most ${issue.maximum} items`, {
            max_length: issue.maximum,
          }),
        ];
      return [
        item("less_than_equal", `Input should be less than or equal to ${issue.maximum}`, {
          le: issue.maximum,
        }),
      ];
    case "too_small":
      if (issue.origin === "array")
        return [
          item("too_short", `List should have at least ${issue.minimum} item`, {
            min_length: issue.minimum,
          }),
        ];
      if (issue.origin === "string")
        return [
          item("string_too_short", `String should have at least ${issue.minimum} character`, {
            min_length: issue.minimum,
          }),
        ];
      return [
        item("greater_than_equal", `Input should be greater than or equal to ${issue.minimum}`, {
          ge: issue.minimum,
        }),
      ];
    case "invalid_value":
      return [
        item("enum", `Input should be ${quoteList(issue.values)}`, {
          expected: quoteList(issue.values),
        }),
      ];
    case "custom":
      return [item(String(issue.params?.["type"] ?? "value_error"), issue.message)];
    default:
      return [item("value_error", issue.message)];
  }
}

export { compileSchemas } from "./lazy.js";

/**
 * `schema.safeParse` (inputs reported), bounded: zod gathers the issues of a nested list by
 * spreading them into one call, which overflows the stack past ~120,000 issues. Such input gets
 * one issue at the root instead of a crash (a 500 from `serve`, exit 1 from the CLI).
 */
export function safeParseBounded<S extends z.ZodType>(
  schema: S,
  input: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  // The build-time parser where there is one: the same answer, without building the schema.
  const fast = fastParserOf(schema);
  if (fast !== undefined) {
    const data = fast(input);
    if (data !== FAIL) return { success: true, data: data as z.output<S> };
  }
  try {
    return schema.safeParse(input, { reportInput: true });
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return {
      success: false,
      error: new z.ZodError([{ code: "custom", path: [], message: TOO_MANY, input }]) as z.ZodError<
        z.output<S>
      >,
    };
  }
}

/** The message of `safeParseBounded`'s one issue. */
export const TOO_MANY =
  "Too many invalid values to list one by one (over 100,000); check the longest lists";

/** Turns a zod error into the spec's 422 `detail[]` items, `loc` starting with `prefix`. */
export function formatValidationDetail(
  error: z.ZodError,
  input: unknown,
  prefix: Loc = [],
): ValidationErrorItem[] {
  return error.issues
    .filter((issue) => !isShadowedSafeIntIssue(issue, error.issues))
    .flatMap((issue) => toItems(issue, input, prefix));
}

/** zod adds a "safe integer range" bound beside our own `max`; one message per field is enough. */
function isShadowedSafeIntIssue(issue: Issue, all: readonly Issue[]): boolean {
  if ((issue.code !== "too_big" && issue.code !== "too_small") || issue.origin !== "int")
    return false;
  const key = JSON.stringify(issue.path);
  return all.some(
    (other) => other !== issue && other.code === issue.code && JSON.stringify(other.path) === key,
  );
}

/** Renders `detail[]` items as the CLI's `loc: msg` lines. */
export function formatDetailLines(detail: readonly ValidationErrorItem[]): string[] {
  return detail.map((d) => `${d.loc.join(".")}: ${d.msg}`);
}
