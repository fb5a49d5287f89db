import { boundLists, htmlToMarkdown } from "./html.js";

/** Fields up to this size are converted whole; larger ones in pieces of about this size. */
export const PIECE_CHARS = 1 << 20;
// Where a piece may end: after a block closes (a paragraph, list, table, division or heading).
const BLOCK_END = /<\/(p|ul|ol|table|div|h[1-6]|blockquote|pre)\s*>/gi;
const SPACE = /\s/g;

/**
 * An HTML field as markdown, in pieces cut after block ends when it is larger than PIECE_CHARS:
 * the converter builds a DOM of what it is given (~30 times the text), so a 50 MB field
 * converted whole peaked at 1.5 GB; in pieces, memory stays at a small multiple of the field.
 * A piece cut inside an outer element converts as if that element closed there.
 */
export function htmlToMarkdownInPieces(field: string, pieceChars = PIECE_CHARS): string {
  // Lists bounded over the whole field, before it is cut: a run of a million `<br>`s between two
  // items shrinks to two, and the items stay in one piece and one list.
  const html = field.length <= pieceChars ? field : boundLists(field);
  if (html.length <= pieceChars) return htmlToMarkdown(html);
  let out = "";
  let from = 0;
  let joint = "";
  while (from < html.length) {
    const [to, next] = cutAfter(html, Math.min(html.length, from + pieceChars), pieceChars);
    const text = htmlToMarkdown(html.slice(from, to));
    if (text) {
      out += out ? joint + text : text;
      joint = next;
    }
    from = to;
  }
  return out;
}

/**
 * Where a piece ends at or after `at`, and what joins it to the next: after a block end within a
 * piece's length (a paragraph break); else, inside a block larger than a piece (one paragraph of
 * 50 MB), at a tag's start (a break too) or at a space outside tags (a space).
 */
function cutAfter(html: string, at: number, pieceChars: number): [number, string] {
  if (at >= html.length) return [html.length, ""];
  const limit = at + pieceChars;
  BLOCK_END.lastIndex = at;
  const end = BLOCK_END.exec(html);
  if (end && end.index <= limit) return [end.index + end[0].length, "\n\n"];
  const tag = html.indexOf("<", at);
  if (tag !== -1 && tag <= limit) return [tag, "\n\n"];
  // No tag within a piece: `at` is in text (or in a tag longer than a piece, cut at its end).
  if (html.lastIndexOf("<", at) > html.lastIndexOf(">", at)) {
    const close = html.indexOf(">", at);
    return close === -1 ? [html.length, ""] : [close + 1, "\n\n"];
  }
  SPACE.lastIndex = at;
  const space = SPACE.exec(html);
  return space && space.index <= limit ? [space.index, " "] : [Math.min(html.length, limit), ""];
}
