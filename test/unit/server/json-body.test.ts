import { describe, expect, it } from "vitest";
import { jsonInvalidDetail, parseJsonText } from "../../../src/server/json-body.js";

// Offsets and wording checked against Python's json module (what a FastAPI service reports).
const CASES: Array<[string, number, string]> = [
  ['{"limit": }', 10, "Expecting value"],
  ['{"a":1,}', 7, "Expecting property name enclosed in double quotes"],
  ["[1,2", 4, "Expecting ',' delimiter"],
  ['{"a" 1}', 5, "Expecting ':' delimiter"],
  ['"abc', 0, "Unterminated string starting at"],
  ["{} x", 3, "Extra data"],
  ["", 0, "Expecting value"],
  ["tru", 0, "Expecting value"],
  ['{"a":"\u0001"}', 6, "Invalid control character at"],
  ['"\\q"', 1, "Invalid \\escape"],
  ["[1,]", 3, "Expecting value"],
  ['{"a":1 "b":2}', 7, "Expecting ',' delimiter"],
  ["{a:1}", 1, "Expecting property name enclosed in double quotes"],
  ["  ", 2, "Expecting value"],
  ['{"a":-}', 5, "Expecting value"],
  ['{"a":"\\u12G4"}', 7, "Invalid \\uXXXX escape"],
];

describe("parseJsonText", () => {
  it.each(CASES)("%j fails at %i: %s", (text, pos, error) => {
    expect(parseJsonText(text)).toEqual({ ok: false, pos, error });
  });

  it.each(['{"a": [1, 2.5e3, true, null, "x\\n\\u00e9"]}', " 1 ", '"\\/"'])(
    "parses valid JSON %j",
    (text) => {
      expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
    },
  );

  it.each([
    { name: "valid", text: "[".repeat(100_000) + "]".repeat(100_000), pos: 256 },
    { name: "unclosed", text: '{"a":' + "[".repeat(100_000), pos: 260 },
  ])(
    "a $name body nested 100,000 deep is refused at level 257, not a stack overflow",
    ({ text, pos }) => {
      const r = parseJsonText(text);
      expect(r).toEqual({
        ok: false,
        pos,
        error: "Nesting deeper than 256 levels",
      });
    },
  );

  it("brackets inside strings do not count as nesting", () => {
    const text = JSON.stringify({ q: "[".repeat(1000) + '\\"{' });
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it("words the 422 item as FastAPI does", () => {
    expect(jsonInvalidDetail(10, "Expecting value")).toEqual({
      loc: ["body", 10],
      msg: "JSON decode error",
      type: "json_invalid",
      input: {},
      ctx: { error: "Expecting value" },
    });
  });
});
