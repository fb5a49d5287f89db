import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripMarkup, tokenize } from "../../../src/engine/text.js";

const terms = (text: string) => tokenize(stripMarkup(text));

describe("tokenize (rule Ordering: terms split on non letters/digits, case-insensitive)", () => {
  it.each([
    ["Sleep Apnea", ["sleep", "apnea"]],
    ["CPAP/BiPAP devices, (E0601)", ["cpap", "bipap", "devices", "e0601"]],
    ["knee-high_socks", ["knee", "high", "socks"]],
    ["  ", []],
    ["Émile Zoë 2024", ["émile", "zoë", "2024"]],
    // "İ" lower-cases to "i" + U+0307 (not a letter): the word stays one term.
    ["İzmir clinic", ["i\u0307zmir", "clinic"]],
    ["**bold** _em_ `code` # head > quote", ["bold", "em", "code", "head", "quote"]],
  ])("%j -> %j", (text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });
});

describe("stripMarkup (rule Ordering: markup is not matched)", () => {
  it.each([
    { name: "HTML tags", text: "<p>Covers <b>therapy</b></p>", expected: ["covers", "therapy"] },
    {
      name: "tag attributes",
      text: '<span class="sleep" data-x="apnea">knee</span>',
      expected: ["knee"],
    },
    { name: "self-closing tags", text: "a<br/>b<img src='x.png' />", expected: ["a", "b"] },
    { name: "HTML comments", text: "keep <!-- hidden words --> this", expected: ["keep", "this"] },
    {
      name: "markdown link target kept out, link text kept",
      text: "See [the policy](https://example.org/sleep-apnea) now",
      expected: ["see", "the", "policy", "now"],
    },
    {
      name: "autolink",
      text: "Visit <https://example.org/apnea>",
      expected: ["visit"],
    },
    {
      name: "reference-style link definition",
      text: 'Intro [ref]\n\n[ref]: https://example.org/apnea "Apnea"\nEnd',
      expected: ["intro", "ref", "end"],
    },
    {
      name: "entities decoded, not matched as names",
      text: "A&amp;B &nbsp;C&#39;s",
      expected: ["a", "b", "c", "s"],
    },
    {
      name: "a plain < in prose is not a tag",
      text: "age < 18 and weight > 50",
      expected: ["age", "18", "and", "weight", "50"],
    },
    {
      name: "bad numeric entity left as typed",
      text: "x &#99999999; y",
      expected: ["x", "99999999", "y"],
    },
  ])("$name", ({ text, expected }) => {
    expect(terms(text)).toEqual(expected);
  });
});

describe("tokenize: its ASCII split of plain text gives the Unicode split's terms", () => {
  const unicodeTerms = (text: string) =>
    text
      .split(/[^\p{L}\p{N}]+/u)
      .filter((t) => t.length > 0)
      .map((t) => t.toLowerCase());
  // Characters on both sides of the line: ASCII, the punctuation the fast path accepts, and
  // letters and digits beyond ASCII (Latin-1's ª ² µ º ½ among them) that must take the other.
  const pieces = fc.constantFrom(
    ..."aZ09 -_.,;:!?*#`'\"/()[]{}<>\t\n\u0000\u007f".split(""),
    ..."\u00a0\u00a7\u00ab\u00b0\u00b7\u00bb\u00d7\u2013\u2014\u2019\u201c\u2026\u2022\u2060".split(
      "",
    ),
    ..."\u00aa\u00b2\u00b5\u00ba\u00bd\u00e9\u0130\u0660\u4e2d\u2070\ud83d\ude00".split(""),
  );

  it("for any mix of such characters", () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        expect(tokenize(text)).toEqual(unicodeTerms(text));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["dash \u2013 and ellipsis\u2026 only", ["dash", "and", "ellipsis", "only"]],
    ["x\u00b2 stays one term", ["x\u00b2", "stays", "one", "term"]],
    ["\u00bd dose", ["\u00bd", "dose"]],
  ])("%j -> %j", (text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });
});

describe("the entity pattern matches what its case-insensitive form did", () => {
  // stripMarkup's ENTITY spells both cases out instead of /i (no ICU case tables to compile).
  const caseless = /&(#\d+|#x[0-9a-f]+|[a-z]+);/gi;
  const spelled = /&(#\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g;
  const pieces = fc.constantFrom(..."&#;xXaAfFgGzZ09 \u0131\u017f\u212a\u00e9".split(""));

  it("on any mix of entity characters and look-alikes (dotless i, long s, Kelvin)", () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (chars) => {
        const text = chars.join("");
        expect(text.match(spelled)).toEqual(text.match(caseless));
      }),
      { numRuns: 3000 },
    );
  });
});
