import { htmlToMarkdown } from "./html.js";

/** Fields up to this size are converted whole; larger ones in pieces of about this size. */
export const PIECE_CHARS = 1 << 20;
// Where a piece may end: after a block closes (a paragraph, list, table, division or heading).
const BLOCK_END = /<\/(p|ul|ol|table|div|h[1-6]|blockquote|pre)\s*>/gi;

/**
 * An HTML field as markdown, in pieces cut after block ends when it is larger than PIECE_CHARS:
 * the converter builds a DOM of what it is given (~30 times the text), so a 50 MB field
 * converted whole peaked at 1.5 GB; in pieces, memory stays at a small multiple of the field.
 * A piece cut inside an outer element converts as if that element closed there.
 */
export function htmlToMarkdownInPieces(html: string): string {
  if (html.length <= PIECE_CHARS) return htmlToMarkdown(html);
  const parts: string[] = [];
  let from = 0;
  while (from < html.length) {
    let to = Math.min(html.length, from + PIECE_CHARS);
    if (to < html.length) {
      BLOCK_END.lastIndex = to;
      const end = BLOCK_END.exec(html);
      // No block end after the cut: cut at a tag's start, never inside a tag.
      to = end
        ? end.index + end[0].length
        : Math.max(to, html.indexOf("<", to) === -1 ? html.length : html.indexOf("<", to));
    }
    const text = htmlToMarkdown(html.slice(from, to));
    if (text) parts.push(text);
    from = to;
  }
  return parts.join("\n\n");
}
