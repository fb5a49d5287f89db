const TAG = /<[^>]*>/g;
const MD_LINK_TARGET = /\]\([^)]*\)/g;
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Removes HTML tags, entities and link targets so markup is never matched as text. */
export function stripMarkup(text: string): string {
  return text
    .replace(TAG, " ")
    .replace(MD_LINK_TARGET, "] ")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, name: string) => {
      if (name.startsWith("#x") || name.startsWith("#X"))
        return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? m;
    });
}

/** Splits text into lower-case terms on anything that is not a letter or digit. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}
