// Markup that is never matched as text: HTML comments, tags (and `<https://…>` autolinks),
// markdown link targets and reference-link definitions. A tag must start with a letter or `/`
// so that a plain `<` in prose ("age < 18 and > 12") is not taken for one.
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const TAG = /<\/?[A-Za-z][^<>]*>|<![A-Za-z][^<>]*>|<\?[^<>]*\?>/g;
const MD_LINK_TARGET = /\]\([^)]*\)/g;
const MD_LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S+.*$/gm;
const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z]+);/gi;
const MARKUP_CHAR = /[<\]&]/;
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntity(match: string, name: string): string {
  const hex = name.startsWith("#x") || name.startsWith("#X");
  if (hex || name.startsWith("#")) {
    const cp = hex ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    // An out-of-range reference is left as typed rather than throwing on bad data.
    return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : match;
  }
  return ENTITIES[name.toLowerCase()] ?? match;
}

/** Removes HTML tags and comments, entities and markdown link targets so markup is never matched. */
export function stripMarkup(text: string): string {
  // Every pattern above needs one of these characters; most titles and summaries have none.
  if (!MARKUP_CHAR.test(text)) return text;
  return text
    .replace(COMMENT, " ")
    .replace(TAG, " ")
    .replace(MD_LINK_DEFINITION, " ")
    .replace(MD_LINK_TARGET, "] ")
    .replace(ENTITY, decodeEntity);
}

/**
 * Splits text into lower-case terms on anything that is not a letter or digit (so markdown
 * punctuation such as `**`, `#`, `_` or `` ` `` never forms part of a term). It splits before
 * lower-casing: "İ" lower-cases to "i" and a combining dot, which is not a letter.
 */
export function tokenize(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .map((t) => t.toLowerCase());
}
