import { describe, expect, it } from "vitest";
import { htmlToPlainLines } from "../../../src/import/mcd/html.js";
import {
  exclusionOf,
  keySentences,
  readParagraph,
} from "../../../src/import/mcd/paragraph-rule.js";

/** Each code of the group with the rule that excludes it (2, 3) or null (COVERS). */
function read(html: string, codes: string[], group = "1"): Record<string, 2 | 3 | null> {
  const reading = readParagraph(htmlToPlainLines(html), group);
  return Object.fromEntries(codes.map((c) => [c, exclusionOf(c, reading)]));
}

// mcd-import.md, "Which listed codes a paragraph excludes": its three real paragraphs first
// (as the export's HTML holds them, shortened as the page shortens them), then our own cases.
describe("the paragraph rule (four steps)", () => {
  it.each<[string, string, string[], Record<string, 2 | 3 | null>, string?]>([
    [
      "L33718 group 1: a modifier legend and the disclaimer exclude nothing",
      "<p>The appearance of a code in this section does not necessarily indicate coverage.</p>" +
        "<p><strong>HCPCS MODIFIERS:</strong></p><p>EY - No physician or other licensed health care provider order for this item or service</p>" +
        "<p>GA - Waiver of liability statement issued as required by payer policy, individual case</p>" +
        "<p>GZ - Item or service expected to be denied as not reasonable and necessary</p>" +
        "<p>KX - Requirements specified in the medical policy have been met</p>" +
        "<p><strong>HCPCS CODES:</strong></p><p><strong>EQUIPMENT:</strong></p>",
      ["E0470", "E0471", "E0601"],
      { E0470: null, E0471: null, E0601: null },
    ],
    [
      "A56566 group 1: sentences naming codes status N exclude those codes only",
      "<p>This list represents common physical and occupational therapy services and is not all-inclusive. " +
        "HCPCS code G0295 is status N (non-covered) under Medicare. " +
        "CPT code 97037 is status N (non-covered) under Medicare.</p>",
      ["97110", "97112", "97037", "G0295"],
      { "97110": null, "97112": null, "97037": 2, G0295: 2 },
    ],
    [
      "A54095 group 7: the following non-covered services, a Non-Covered heading: the whole group",
      "<p>To bill the following non-covered services/tests, report CPT code 95999 appended with the GY modifier. " +
        "The following CPT codes are Non-Covered:</p>",
      ["95999", "95012", "0010M"],
      { "95999": 2, "95012": 3, "0010M": 3 },
    ],
    [
      "billing advice naming modifiers, not the group's codes, is no exclusion (rule 4)",
      "<p>If the beneficiary wants the supplier to bill, submit the items as non-covered (use modifiers FB and GX or GY).</p>",
      ["A4604", "A7030"],
      { A4604: null, A7030: null },
    ],
    [
      // The real export of 2026-08 (A52840 group 1): "these items" in the same sentence.
      "billing advice about these items is no exclusion either (rule 4)",
      "<p>Items and services provided free of charge by research sponsors should not be billed to Medicare. " +
        "If these items are required for payment of another payable service, providers should submit the items as non-covered " +
        "(use modifiers FB and GX or GY). For OPPS claims, a token charge must be entered on the line for a no-cost item.</p>",
      ["G0293", "G0294"],
      { G0293: null, G0294: null },
    ],
    // More of the real export of 2026-08: how its groups declare themselves not covered.
    [
      "A56866 group 3: the following CPT® codes",
      "<p>The following CPT® codes are considered not medically reasonable and necessary (non-covered).</p>",
      ["0232T", "0481T"],
      { "0232T": 3, "0481T": 3 },
    ],
    [
      "A56863 group 2: the CPT codes listed below",
      "<p>The CPT codes listed below are considered not medically necessary:</p>",
      ["76390", "0042T"],
      { "76390": 3, "0042T": 3 },
    ],
    [
      "A57552 group 2: a heading with a full stop",
      "<p>Non-covered codes.</p>",
      ["95940", "95941"],
      { "95940": 3, "95941": 3 },
    ],
    [
      "A59318 group 4: the following CPT/HCPCS are",
      "<p>The following CPT/HCPCS are Non-Covered.</p>",
      ["0398T", "C9734"],
      { "0398T": 3, C9734: 3 },
    ],
    [
      "A59672 group 2: the CPT® code in Group 2, for group 2",
      "<p>The CPT® code in Group 2 is considered not medically reasonable and necessary (non-covered).</p>",
      ["0913T"],
      { "0913T": 3 },
      "2",
    ],
    [
      // A56587 group 5's shape (its words are ours: a CPT descriptor stood in the parenthesis).
      "a code named inside a parenthesis with a semicolon",
      "<p>Liposuction (15877 as described in the code book; see the note) used for this treatment is considered integral to the primary procedure and not covered.</p>",
      ["15877", "19300"],
      { "15877": 2, "19300": null },
    ],
    [
      "a parenthesis never closed does not join the sentences after it",
      "<p>Codes 97110 and 97112 are covered (when billed with modifier GP. Code 97037 is non-covered.</p>",
      ["97110", "97112", "97037"],
      { "97110": null, "97112": null, "97037": 2 },
    ],
    [
      "billing advice that names the code declares it",
      "<p>Bill code 97037 as non-covered.</p>",
      ["97037", "97110"],
      { "97037": 2, "97110": null },
    ],
    [
      "billing advice about these codes declares the group",
      "<p>These codes should be reported as non-covered.</p>",
      ["97037", "97110"],
      { "97037": 3, "97110": 3 },
    ],
    ...[
      "Not covered for screening.",
      "Non-covered codes are in Group 2.",
      "See Group 3 for non-covered codes.",
      "Not medically necessary.",
      "Use of the following drugs are not covered when used off-label.",
      "When a service below is not medically necessary, an ABN must be obtained.",
    ].map((sentence): [string, string, string[], Record<string, 2 | 3 | null>] => [
      `no group phrase: ${sentence}`,
      `<p>${sentence}</p>`,
      ["97110"],
      { "97110": null },
    ]),
    [
      "denied as non-covered is a declaration, not billing advice",
      "<p>The following CPT codes/procedures are considered cosmetic and will be denied as non-covered.</p>",
      ["15775", "15776"],
      { "15775": 3, "15776": 3 },
    ],
    [
      "a heading alone on its line",
      "<p><strong>Non-Covered Services</strong></p><p>Use these codes for the tests below.</p>",
      ["86152", "86153"],
      { "86152": 3, "86153": 3 },
    ],
    [
      "a heading excludes the group except codes named covered",
      "<p>Noncovered</p><p>CPT code 81479 is covered when billed with an approved test.</p>",
      ["81479", "81599"],
      { "81479": null, "81599": 3 },
    ],
    [
      "all codes of the group except those it names",
      "<p>All codes in this group are not reasonable and necessary except 97110 and 97112.</p>",
      ["97110", "97112", "97035"],
      { "97110": null, "97112": null, "97035": 3 },
    ],
    [
      "the codes in group N, for this group",
      "<p>The codes in group 2 are not medically necessary.</p>",
      ["J7336", "J3490"],
      { J7336: 3, J3490: 3 },
      "2",
    ],
    [
      "the codes in group N, for another group: no exclusion here",
      "<p>The codes in group 2 are not medically necessary.</p>",
      ["J7336"],
      { J7336: null },
      "3",
    ],
    [
      "a range named not covered",
      "<p>CPT codes 97010 - 97028 are bundled and not covered separately.</p>",
      ["97010", "97018", "97028", "97032", "G0283"],
      { "97010": 2, "97018": 2, "97028": 2, "97032": null, G0283: null },
    ],
    [
      "a legend followed by a CODES heading under which a sentence excludes",
      "<p>MODIFIERS:</p><p>GZ - not reasonable and necessary</p><p>CODES:</p><p>K0001 is non-covered.</p>",
      ["K0001", "K0002"],
      { K0001: 2, K0002: null },
    ],
    [
      "a lower-case sentence about the GZ modifier is not a legend",
      "<p>Append the GZ modifier: E0601 is not reasonable and necessary without a sleep test.</p>",
      ["E0601", "E0470"],
      { E0601: 2, E0470: null },
    ],
    [
      "covered wording without a negation",
      "<p>These codes are covered when the criteria are met.</p>",
      ["E0601"],
      { E0601: null },
    ],
    [
      "the following are not reasonable and necessary",
      "<p>The following are <b>NOT reasonable and necessary</b> for this use.</p>",
      ["97110", "L1851"],
      { "97110": 3, L1851: 3 },
    ],
    ["N/A", "<p>N/A</p>", ["97110"], { "97110": null }],
    ["an empty paragraph", "", ["97110"], { "97110": null }],
    // Rule 5 (issue 36): the new wordings exclude; limits and denials do not.
    [
      "A56737 group 1: 'is not a covered service' names its code (rule 2)",
      "<p>CPT code 75571 is not a covered service.</p>",
      ["75571", "75572"],
      { "75571": 2, "75572": null },
    ],
    [
      "A57604 group 2: a 'Not payable by Medicare' heading (rule 3)",
      "<p>Not payable by Medicare</p>",
      ["93799", "93998"],
      { "93799": 3, "93998": 3 },
    ],
    [
      "A60249 group 3: a 'Non-coverage' heading (rule 3)",
      "<p><strong>Non-coverage</strong></p>",
      ["0338T", "0339T"],
      { "0338T": 3, "0339T": 3 },
    ],
    [
      "A58710 group 8: a combination limit is no exclusion",
      "<p><strong>Conditionally Non-covered CPT codes:</strong></p><p>The following CPT codes are NOT covered for a given beneficiary on the same DOS when <br />&gt;1<br /> is billed in combination with another CPT or PLA code from Groups 1-7 for the same intended use.</p>",
      ["81479", "81599"],
      { "81479": null, "81599": null },
      "8",
    ],
    [
      "a frequency limit is no exclusion",
      "<p>The following codes are not covered more than once per year.</p>",
      ["G0101", "Q0091"],
      { G0101: null, Q0091: null },
    ],
    [
      "A56685 group 1: 'does not imply non-coverage' is no exclusion",
      "<p>Absence of a diagnosis code in this article for other conditions for which these evaluations may be medically necessary does not imply non-coverage in those circumstances.</p>",
      ["90791", "90792"],
      { "90791": null, "90792": null },
    ],
    [
      "'not separately payable' is bundling, not an exclusion",
      "<p>CPT code 36415 is not separately payable.</p>",
      ["36415"],
      { "36415": null },
    ],
  ])("%s", (_name, html, codes, want, group) => {
    expect(read(html, codes, group)).toEqual(want);
  });
});

// mcd-import.md rule 6: what a category quotes.
describe("keySentences (the sentence an explanation quotes)", () => {
  const cut = (s: string) => s.slice(0, 120);
  const key = (html: string, group = "1") => keySentences(htmlToPlainLines(html), group, cut);

  it("a named code is quoted from the sentence naming it", () => {
    const k = key(
      "<p>This list represents common physical and occupational therapy services and is not all-inclusive. HCPCS code G0295 is status N (non-covered) under Medicare.</p>",
    );
    expect(k.naming("G0295")).toBe("HCPCS code G0295 is status N (non-covered) under Medicare.");
    expect(k.naming("97110")).toBeUndefined();
  });

  it.each([
    [
      "the provider's-responsibility opening is skipped for the group's declaration",
      "<p>It is the provider&rsquo;s responsibility to select codes carried out to the highest level of specificity.</p><p>The following ICD-10-CM codes support medical necessity and provide coverage for CPT code: 95937.</p>",
      "The following ICD-10-CM codes support medical necessity and provide coverage for CPT code: 95937.",
    ],
    [
      "the disclaimer is skipped",
      "<p>The appearance of a code in this section does not necessarily indicate coverage.</p><p>HCPCS CODES:</p><p>EQUIPMENT:</p>",
      "HCPCS CODES: EQUIPMENT:",
    ],
    [
      "a declaration close behind a heading keeps the heading",
      "<p>Urogenital/Anogenital Panels: These codes are covered under limited circumstances.</p>",
      "Urogenital/Anogenital Panels: These codes are covered under limited circumstances.",
    ],
  ])("%s", (_what, html, quote) => {
    expect(key(html).group).toBe(quote);
  });
});
