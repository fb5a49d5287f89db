// Markup as plain text, for a spreadsheet cell (cli.md Output, "CSV for spreadsheets"). Tags
// that end a block of text (a paragraph, a list item, a line break) stand for a space; other
// tags (bold, links) for nothing, so that "<b>medically necessary</b>," stays one phrase.
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const BLOCK_TAG = /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|hr)\b[^<>]*>/gi;
// A tag starts with a letter or `/`, so a plain `<` in prose ("age < 18") is kept.
const INLINE_TAG = /<\/?[A-Za-z][^<>]*>/g;
const MD_LINK = /\[([^\]\n]*)\]\([^)\n]*\)/g;
const MD_EMPHASIS = /\*\*|__|`/g;
const ENTITY = /&(#\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g;
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntity(match: string, name: string): string {
  if (name.startsWith("#")) {
    const hex = name[1] === "x" || name[1] === "X";
    const cp = hex ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    // An out-of-range reference is left as typed rather than throwing on bad data.
    return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : match;
  }
  return ENTITIES[name.toLowerCase()] ?? match;
}

/** Decodes HTML character references (`&amp;`, `&#8217;`, `&#x2019;`); unknown ones stay as typed. */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, decodeEntity);
}

/** HTML or markdown markup as plain text on one line: tags, comments and link targets gone. */
export function markupToText(text: string): string {
  return text
    .replace(COMMENT, " ")
    .replace(BLOCK_TAG, " ")
    .replace(INLINE_TAG, "")
    .replace(MD_LINK, "$1")
    .replace(MD_EMPHASIS, "")
    .replace(ENTITY, decodeEntity)
    .replace(/\s+/g, " ")
    .trim();
}

/** A record with its `summary` as plain text, as CSV gives it (cli.md, "CSV for spreadsheets"). */
export function withPlainSummary<T extends { summary: string | null }>(record: T): T {
  return record.summary === null ? record : { ...record, summary: markupToText(record.summary) };
}
