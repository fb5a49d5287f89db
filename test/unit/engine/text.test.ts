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
