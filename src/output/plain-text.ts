import { stripMarkup } from "../engine/text.js";

// Tags that end a block of text (a paragraph, a list item, a line break) stand for a space;
// other tags (bold, links) for nothing, so that "<b>medically necessary</b>," stays one phrase.
const BLOCK_TAG = /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|hr)\b[^<>]*>/gi;
const INLINE_TAG = /<\/?[A-Za-z][^<>]*>/g;

/** HTML or markdown markup as plain text, one line: what a spreadsheet cell should show. */
export function markupToText(text: string): string {
  return stripMarkup(text.replace(BLOCK_TAG, " ").replace(INLINE_TAG, ""))
    .replace(/\*\*|__|`/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
