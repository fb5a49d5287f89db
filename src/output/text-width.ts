import stringWidth from "string-width";

// Characters that string-width counts as one column each and among which its emoji regex can
// match nothing: printable ASCII, Latin-1 and the Latin extensions (but not © and ®, which can
// start an emoji), and the dashes, quotes and ellipsis of typeset text.
const ONE_COLUMN_EACH = /^[\x20-\x7e\u00a0-\u00a8\u00aa-\u00ad\u00af-\u02ff\u2010-\u2027]*$/;

/**
 * Whether each UTF-16 unit of a text is a grapheme cluster of its own, one column wide: the
 * text can be cut anywhere without a grapheme segmenter.
 */
export function isOneColumnEach(text: string): boolean {
  return ONE_COLUMN_EACH.test(text);
}

/**
 * Terminal columns of one line, exactly as string-width counts them (CJK and emoji take 2,
 * combining marks 0), with most text measured without its emoji regex: that regex is compiled
 * and tiered up on first use, and cli-table3 measures a cell once per character it trims.
 */
export function measureColumns(text: string): number {
  return ONE_COLUMN_EACH.test(text) ? text.length : stringWidth(text);
}
