import type { ValidationErrorItem } from "../contract/index.js";

export type JsonParse = { ok: true; value: unknown } | { ok: false; pos: number; error: string };

class SyntaxAt extends Error {
  constructor(
    readonly pos: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const WS = /[ \t\n\r]/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Finds where a JSON text first breaks, with Python's `json` wording (what the live service,
 * a FastAPI app, reports): `JSON.parse` messages differ across Node versions and lack the offset.
 */
function locateSyntaxError(text: string): { pos: number; error: string } {
  let i = 0;
  const ws = () => {
    while (i < text.length && WS.test(text[i]!)) i++;
  };
  const string = () => {
    const start = i++;
    for (;;) {
      if (i >= text.length) throw new SyntaxAt(start, "Unterminated string starting at");
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            throw new SyntaxAt(i + 1, "Invalid \\uXXXX escape");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new SyntaxAt(i, "Invalid \\escape");
      } else if (c < " ") throw new SyntaxAt(i, "Invalid control character at");
      else i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"')
          throw new SyntaxAt(i, "Expecting property name enclosed in double quotes");
        string();
        ws();
        if (text[i] !== ":") throw new SyntaxAt(i, "Expecting ':' delimiter");
        i++;
        value();
        ws();
        if (text[i] === "}") return void i++;
        if (text[i] !== ",") throw new SyntaxAt(i, "Expecting ',' delimiter");
        i++;
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === "]") return void i++;
        if (text[i] !== ",") throw new SyntaxAt(i, "Expecting ',' delimiter");
        i++;
      }
    }
    if (c === '"') return string();
    for (const word of ["true", "false", "null"])
      if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) return void (i += m[0].length);
    throw new SyntaxAt(i, "Expecting value");
  };
  try {
    value();
    ws();
    if (i < text.length) return { pos: i, error: "Extra data" };
  } catch (err) {
    if (err instanceof SyntaxAt) return { pos: err.pos, error: err.reason };
    throw err;
  }
  // JSON.parse refused what this scanner accepts (should not happen): point at the start.
  return { pos: 0, error: "Expecting value" };
}

/** Deeper than any request of the API (~5 levels), far below what recursion can hold. */
const MAX_DEPTH = 256;

/**
 * The offset where nesting first goes past MAX_DEPTH, or -1. Checked before parsing: the
 * error locator, the validator and the 422's echo of the input all recurse, and a body of
 * 100,000 `[` would end their stack (a 500 instead of a 422).
 */
function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** Parses a request body; on failure says where (character offset) and why. */
export function parseJsonText(text: string): JsonParse {
  const deep = tooDeepAt(text);
  if (deep >= 0) return { ok: false, pos: deep, error: `Nesting deeper than ${MAX_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, ...locateSyntaxError(text) };
  }
}

/** The 422 item for a body that is not JSON, as FastAPI words it. */
export function jsonInvalidDetail(pos: number, error: string): ValidationErrorItem {
  return {
    loc: ["body", pos],
    msg: "JSON decode error",
    type: "json_invalid",
    input: {},
    ctx: { error },
  };
}
