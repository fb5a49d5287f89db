import type { z } from "zod";
import type { ValidationErrorItem } from "./responses.js";

type Loc = Array<string | number>;
type Issue = z.core.$ZodIssue;

const TYPE_NAMES: Record<string, [string, string]> = {
  int: ["int_type", "Input should be a valid integer"],
  number: ["float_type", "Input should be a valid number"],
  string: ["string_type", "Input should be a valid string"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["model_type", "Input should be a valid dictionary or object"],
};

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
        return [{ loc, msg: "Field required", type: "missing", input: null }];
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

/** Turns a zod error into the spec's 422 `detail[]` items, `loc` starting with `prefix`. */
export function formatValidationDetail(
  error: z.ZodError,
  input: unknown,
  prefix: Loc = [],
): ValidationErrorItem[] {
  return error.issues.flatMap((issue) => toItems(issue, input, prefix));
}

/** Renders `detail[]` items as the CLI's `loc: msg` lines. */
export function formatDetailLines(detail: readonly ValidationErrorItem[]): string[] {
  return detail.map((d) => `${d.loc.join(".")}: ${d.msg}`);
}
