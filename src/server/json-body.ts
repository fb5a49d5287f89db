import { isUtf8 } from "node:buffer";
import { randomBytes } from "node:crypto";
import { NumberLiteral, type ValidationErrorItem } from "../contract/index.js";

export type JsonParse =
  | {
      ok: true;
      value: unknown;
      /** The value with number literals too large for a double kept as written, if any. */
      asWritten?: unknown;
    }
  | { ok: false; pos: number; error: string };

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

// A literal past a double's range needs an exponent of three digits or 309 digits in a row.
const MAYBE_HUGE = /[eE]\+?\d{3}|\d{309}/;

/**
 * The value of a valid JSON text with each number literal too large for a double (which
 * JSON.parse makes Infinity) as a NumberLiteral of its text; undefined when there is none.
 * Those literals are swapped for marker strings (a random nonce, so no string of the body can
 * pass for one), and parsed again.
 */
function keepHugeNumbers(text: string): unknown {
  if (!MAYBE_HUGE.test(text)) return undefined;
  const literals: string[] = [];
  const marker = `\u0000number-${randomBytes(8).toString("hex")}-`;
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(text)?.[0] ?? text[i]!;
      if (!Number.isFinite(Number(literal))) {
        out += text.slice(from, i) + JSON.stringify(marker + literals.length);
        literals.push(literal);
        from = i + literal.length;
      }
      i += literal.length - 1;
    }
  }
  if (literals.length === 0) return undefined;
  return JSON.parse(out + text.slice(from), (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(marker)
      ? new NumberLiteral(literals[Number(value.slice(marker.length))] as string)
      : value,
  );
}

/** Parses a request body; on failure says where (character offset) and why. */
export function parseJsonText(text: string): JsonParse {
  const deep = tooDeepAt(text);
  if (deep >= 0) return { ok: false, pos: deep, error: `Nesting deeper than ${MAX_DEPTH} levels` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, ...locateSyntaxError(text) };
  }
  const asWritten = keepHugeNumbers(text);
  return asWritten === undefined ? { ok: true, value } : { ok: true, value, asWritten };
}

const hex = (b: number) => `0x${b.toString(16).padStart(2, "0")}`;

/**
 * Where a body stops being UTF-8, worded as Python's decoder (what a FastAPI service runs):
 * null when it is UTF-8. Offsets are in bytes.
 */
export function findInvalidUtf8(bytes: Uint8Array): { pos: number; error: string } | null {
  if (isUtf8(bytes)) return null;
  const fail = (pos: number, reason: string) => ({
    pos,
    error: `'utf-8' codec can't decode byte ${hex(bytes[pos]!)} in position ${pos}: ${reason}`,
  });
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The continuation bytes a lead byte needs, and the range of the first (no overlong forms,
    // no surrogates, nothing past U+10FFFF).
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return fail(i, "invalid start byte");
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length) {
        const error =
          i === bytes.length - 1
            ? `'utf-8' codec can't decode byte ${hex(b)} in position ${i}: unexpected end of data`
            : `'utf-8' codec can't decode bytes in position ${i}-${bytes.length - 1}: unexpected end of data`;
        return { pos: i, error };
      }
      const c = bytes[i + k]!;
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf))
        return fail(i, "invalid continuation byte");
    }
    i += need + 1;
  }
  // isUtf8 refused what this walk accepts (should not happen): point at the start.
  return { pos: 0, error: "'utf-8' codec can't decode the body" };
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
