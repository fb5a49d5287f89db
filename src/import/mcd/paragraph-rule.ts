// mcd-import.md, "Which listed codes a paragraph excludes": a code group's paragraph is written
// by hand and mixes coverage statements with modifier legends, disclaimers and billing advice.
// Four steps, in order: (1) leave out modifier legends and the standard disclaimer; (2) a
// sentence declaring codes it names not covered excludes those codes; (3) a heading or sentence
// declaring the group's codes not covered as a whole excludes every code of the group except
// those named as covered; (4) anything else excludes nothing. Only HCPCS/CPT lists use it.

/** What a paragraph says about its group's codes. */
export interface ParagraphReading {
  /** Rule 2: codes (and `from-to` ranges) named in a sentence that declares them not covered. */
  named: ReadonlySet<string>;
  namedRanges: ReadonlyArray<readonly [string, string]>;
  /** Rule 3: the group's codes are declared not covered as a whole. */
  wholeGroup: boolean;
  /** Codes the paragraph names as covered: kept `COVERS` under rule 3. */
  covered: ReadonlySet<string>;
  coveredRanges: ReadonlyArray<readonly [string, string]>;
}

/** The rule that excluded a code (2: named, 3: the whole group), or null: the code is covered. */
export type ExclusionRule = 2 | 3 | null;

const NOTHING: ParagraphReading = {
  named: new Set(),
  namedRanges: [],
  wholeGroup: false,
  covered: new Set(),
  coveredRanges: [],
};

// Step 1. A legend runs from a MODIFIER(S) heading (upper case, or "Modifiers:" opening a line)
// to the next CODES heading or the end; the disclaimer is one fixed sentence.
const LEGEND =
  /(?:\bMODIFIERS?\b|(?:^|\n)[^\S\n]*(?:[A-Za-z]+[^\S\n]+)?Modifiers?:)[\s\S]*?(?=\b(?:[A-Z]+[^\S\n]+)?CODES\b|(?:^|\n)[^\S\n]*(?:[A-Za-z]+[^\S\n]+)?Codes?:|$)/g;
const DISCLAIMER =
  /the appearance of a code in this section does not necessarily indicate coverage\.?/gi;

// Step 2. Words that declare something not covered (rule 5 adds "Non-coverage", "is not a
// covered service", "not payable by Medicare").
const NOT_COVERED =
  /\bnon-?\s?cover(?:ed|age)\b|\bnot\s+(?:be\s+|been\s+)?(?:a\s+)?covered\b|\bnot\s+payable\b|\bnot\s+reasonable\s+and\s+necessary\b|\bnot\s+medically\s+necessary\b|\bstatus\s+N\b/i;
// Rule 5: a limit on frequency, units or combination is no exclusion of the code ("Conditionally
// Non-covered", "NOT covered ... on the same DOS when >1 is billed in combination with ...",
// "not covered more than once per year"); nor is a denial of non-coverage ("does not imply
// non-coverage").
const LIMIT =
  /\bconditionally\b|\bsame\s+(?:DOS|day|date)\b|\bin\s+combination\s+with\b|\bmore\s+than\s+(?:one|once|twice|\d+)\b|\bonce\s+(?:per|every|in|a)\b|\bper\s+(?:day|year|lifetime|beneficiary|session|visit|encounter|month|week)\b|\bfrequency\b|\bunits?\s+of\s+service\b|\bexceed(?:s|ing)?\b|>\s*1\b|\bnot\s+imply\b/i;
// A code of an HCPCS/CPT list: HCPCS Level II (a letter and four digits), CPT (five digits, or
// four and F, T or U); a range is two codes joined by a dash or "through".
const CODE = String.raw`(?:[A-Z]\d{4}|\d{4}[0-9FTU])`;
const CODE_IN_TEXT = new RegExp(String.raw`\b${CODE}\b`);
const CODE_OR_RANGE = new RegExp(
  String.raw`\b(${CODE})(?:\s*(?:-|\u2013|\u2014|through|thru|to)\s*(${CODE}))?\b`,
  "g",
);
// Billing advice, not a declaration: "submit the items as non-covered (use modifiers FB and GX or
// GY)" says how to bill what a beneficiary wants billed ("denied as non-covered" is not this).
// Advice that names a code ("bill 97037 as non-covered"), or whose subject is the group's codes
// ("these codes should be reported as non-covered"), still declares.
const BILLING_ADVICE =
  /\b(?:submit(?:ted)?|bill(?:ed)?|report(?:ed)?|file[ds]?)\s+(?:[\w/-]+\s+){0,4}?as\s+(?:non-?\s?covered|not\s+covered)\b/gi;
// What a sentence keeps apart from its declaration: "... non-covered except 97110".
const EXCEPT = /\b(?:except(?:\s+for)?|other\s+than|with\s+the\s+exception\s+of)\b/i;
// Step 3. A sentence about the group as a whole.
// Words between "the following" and its noun.
const WORDS = String.raw`(?:[\w/-]+\s+){0,3}?`;
// Code-system words: "CPT®/HCPCS", "PLA", "CPT®", as they stand before "codes" or "are".
const SYSTEM = String.raw`(?:CPT|HCPCS|PLA)[®™]?(?:\s*\/\s*(?:CPT|HCPCS|PLA)[®™]?)?\s+`;
const THINGS = String.raw`(?:codes?|services?|tests?|items?|procedures?|supplies)`;
const WHOLE_GROUP = new RegExp(
  [
    String.raw`\bthe\s+following\s+(?:${SYSTEM})?(?:are|is|were|will)\b|\bthe\s+following\s*:`,
    String.raw`\b(?:the\s+following|these|those|all(?:\s+of)?(?:\s+the)?(?:\s+listed)?)\s+(?:${SYSTEM})?${WORDS}${THINGS}\b`,
    String.raw`\b${THINGS}\s+(?:listed|shown)\s+below\b`,
    String.raw`\b(?:this|the)\s+(?:code\s+)?group\b`,
  ].join("|"),
  "i",
);
// Advice whose subject is the group's codes declares: "these codes should be reported as ...".
const CODES_AS_SUBJECT = new RegExp(
  String.raw`\b(?:the\s+following|these|those|all)\s+(?:${SYSTEM})?codes?\s+(?:should|must|are\s+to|may|will)\s+be\s+$`,
  "i",
);
const GROUP_NUMBER = /\b(?:the\s+)?codes?\s+(?:in|of)\s+(?:the\s+)?group\s+(\d+)\b/gi;
// A heading: a short line that is only the declaration ("Non-covered", "Non-Covered Services").
const HEADING_WORDS = 6;
// A heading with a full stop ("Non-covered codes.") must be only the declaration and its noun.
const STOPPED_HEADING = new RegExp(
  String.raw`^(?:non-?\s?covered|not\s+covered)(?:\s+(?:${SYSTEM})?${THINGS})?\.$`,
  "i",
);
// Words that name codes as covered (outside a not-covered declaration).
const COVERED = /\bcovered\b|\bpayable\b|\breasonable\s+and\s+necessary\b/i;

/** The plain text of a paragraph without its modifier legends and the disclaimer (step 1). */
export function withoutLegends(text: string): string {
  return text.replace(DISCLAIMER, " ").replace(LEGEND, " ");
}

/**
 * Reads a group's paragraph (plain text, one block a line) by the four steps; `group` is the
 * group's number, for a sentence about "the codes in group N".
 */
export function readParagraph(text: string, group: string): ParagraphReading {
  const kept = withoutLegends(text);
  if (!NOT_COVERED.test(kept)) return NOTHING;
  const named = new Set<string>();
  const namedRanges: Array<[string, string]> = [];
  const covered = new Set<string>();
  const coveredRanges: Array<[string, string]> = [];
  let wholeGroup = false;
  for (const line of kept.split("\n")) {
    const trimmed = line.trim().replace(/:$/, "");
    if (!trimmed) continue;
    if (LIMIT.test(trimmed) && !/[.!?;]/.test(trimmed)) continue;
    if (isHeading(trimmed)) {
      wholeGroup = true;
      continue;
    }
    for (const written of sentences(trimmed)) {
      const sentence = withoutBillingAdvice(written);
      if (LIMIT.test(sentence)) continue;
      if (!NOT_COVERED.test(sentence)) {
        if (COVERED.test(sentence)) collect(sentence, covered, coveredRanges);
        continue;
      }
      const cut = EXCEPT.exec(sentence);
      const head = cut ? sentence.slice(0, cut.index) : sentence;
      if (cut) collect(sentence.slice(cut.index), covered, coveredRanges);
      if (!NOT_COVERED.test(head)) continue;
      if (aboutTheGroup(head, group)) wholeGroup = true;
      collect(head, named, namedRanges);
    }
  }
  return { named, namedRanges, wholeGroup, covered, coveredRanges };
}

/** Which rule, if any, excludes `code` (upper case) from its group (steps 2 and 3). */
export function exclusionOf(code: string, reading: ParagraphReading): ExclusionRule {
  if (reading === NOTHING) return null;
  if (reading.named.has(code) || inRanges(code, reading.namedRanges)) return 2;
  if (reading.wholeGroup && !reading.covered.has(code) && !inRanges(code, reading.coveredRanges))
    return 3;
  return null;
}

/** A sentence without its billing advice (advice naming a code, or about the codes, stays). */
function withoutBillingAdvice(sentence: string): string {
  return sentence.replace(BILLING_ADVICE, (advice: string, at: number) =>
    CODE_IN_TEXT.test(advice) || CODES_AS_SUBJECT.test(sentence.slice(0, at)) ? advice : " ",
  );
}

/**
 * The sentences of a line. A parenthesis that closes later on the line stays in its sentence
 * ("(15877 a descriptor; its part)"); one never closed does not swallow the rest of the line.
 */
function sentences(line: string): string[] {
  const pieces = line.split(/(?<=[.!?;])\s+/);
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && depth(last) > 0) out[out.length - 1] = `${last} ${piece}`;
    else out.push(piece);
  }
  return depth(out.at(-1) ?? "") > 0 ? pieces : out;
}

/** How many parentheses are open at the end of `text`. */
function depth(text: string): number {
  let open = 0;
  for (const ch of text)
    if (ch === "(") open++;
    else if (ch === ")" && open > 0) open--;
  return open;
}

function isHeading(line: string): boolean {
  if (STOPPED_HEADING.test(line)) return true;
  return (
    NOT_COVERED.test(line) &&
    line.split(/\s+/).length <= HEADING_WORDS &&
    !/[.!?]/.test(line) &&
    !new RegExp(`\\b${CODE}\\b`).test(line)
  );
}

function aboutTheGroup(sentence: string, group: string): boolean {
  for (const m of sentence.matchAll(GROUP_NUMBER)) if (m[1] === group.trim()) return true;
  return WHOLE_GROUP.test(sentence.replace(GROUP_NUMBER, ""));
}

function collect(sentence: string, codes: Set<string>, ranges: Array<[string, string]>): void {
  for (const m of sentence.matchAll(CODE_OR_RANGE)) {
    const [, from, to] = m as unknown as [string, string, string | undefined];
    if (to && sameShape(from, to)) ranges.push([from, to]);
    else {
      codes.add(from);
      if (to) codes.add(to);
    }
  }
}

/** Two codes of one kind (same length, letters at the same places), so a range compares by text. */
function sameShape(a: string, b: string): boolean {
  return a.length === b.length && a.replace(/\d/g, "0") === b.replace(/\d/g, "0") && a <= b;
}

function inRanges(code: string, ranges: ReadonlyArray<readonly [string, string]>): boolean {
  return ranges.some(([from, to]) => sameShape(from, code) && code >= from && code <= to);
}

/** What a group's codes are explained by (rule 6), from its paragraph as plain lines. */
export interface KeySentences {
  /** For a code the paragraph names: its quote from the first sentence naming it (a not-covered one first). */
  naming(code: string): string | undefined;
  /** The quote from the heading or sentence declaring the group, else from its first sentence of substance. */
  group: string | undefined;
  /** Characters of the quotes kept (what the import holds for them). */
  chars: number;
}

const CLOSE = 60;
// Boilerplate that explains no code: the disclaimer and the ICD-10 lists' standard opening.
const BOILERPLATE =
  /the appearance of a code in this section does not necessarily indicate coverage|provider.s\s+responsibility\s+to\s+select\s+codes|responsibility\s+of\s+the\s+provider\s+to\s+code/i;
const DECLARES_GROUP = new RegExp(
  `${WHOLE_GROUP.source}|\\b(?:support|supports)\\s+medical\\s+necessity\\b`,
  "i",
);

/**
 * Rule 6: where an explanation quotes a paragraph from, not its first words (often the
 * disclaimer): for each named code the sentence naming it, for the group the sentence or heading
 * declaring it (or, failing one, the first sentence of substance). Each quote runs from that
 * sentence on, through `cut` (the category's length), so what follows it still reads.
 */
export function keySentences(
  text: string,
  group: string,
  cut: (tail: string) => string | null,
): KeySentences {
  const lines = withoutLegends(text)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const flat = lines.join(" ");
  const quotes = new Map<number, string | null>();
  const quote = (at: number) => {
    if (!quotes.has(at)) {
      const q = cut(flat.slice(at, at + 1000));
      // Copied: a slice would be a view of the whole paragraph in V8.
      quotes.set(at, q === null ? null : Buffer.from(q, "utf8").toString("utf8"));
    }
    return quotes.get(at) ?? undefined;
  };
  const named = new Map<string, { at: number; excludes: boolean }>();
  const ranges: Array<[string, string, number]> = [];
  let declares: { at: number; excludes: boolean } | undefined;
  let first: number | undefined;
  let cursor = 0;
  for (const line of lines) {
    const heading = isHeading(line.replace(/:$/, ""));
    for (const sentence of heading ? [line] : sentences(line)) {
      const found = flat.indexOf(sentence, cursor);
      const at = found === -1 ? cursor : found;
      cursor = at + sentence.length;
      if (BOILERPLATE.test(sentence)) continue;
      const excludes = NOT_COVERED.test(sentence) && !LIMIT.test(sentence);
      const codes = new Set<string>();
      const spans: Array<[string, string]> = [];
      collect(sentence, codes, spans);
      for (const code of codes) {
        const seen = named.get(code);
        if (!seen || (excludes && !seen.excludes)) named.set(code, { at, excludes });
      }
      for (const [from, to] of spans) ranges.push([from, to, at]);
      const declaring = heading || aboutTheGroup(sentence, group) || DECLARES_GROUP.test(sentence);
      if (declaring && (!declares || (excludes && !declares.excludes))) declares = { at, excludes };
      first ??= at;
    }
  }
  // A declaration just after the first words (a heading, "Panels: These codes are ...") is
  // quoted with them; one further on is quoted from where it starts.
  const groupAt =
    declares && (first === undefined || declares.at - first > CLOSE) ? declares.at : first;
  // Every quote made now: the result holds them, never the paragraph (a bomb of distinct
  // paragraphs would otherwise be held whole).
  const byCode = new Map([...named].map(([code, n]) => [code, quote(n.at)]));
  const byRange = ranges.map(([from, to, at]) => [from, to, quote(at)] as const);
  const groupQuote = groupAt === undefined ? undefined : quote(groupAt);
  return {
    naming: (code) =>
      byCode.get(code) ?? byRange.find(([from, to]) => inRanges(code, [[from, to]]))?.[2],
    group: groupQuote,
    chars: [...quotes.values()].reduce((n, q) => n + (q?.length ?? 0), 0),
  };
}
