import TurndownService from "turndown";
import gfm from "@joplin/turndown-plugin-gfm";

// Markdown as the rest of the tool writes it: ATX headings, `-` bullets, fenced code.
const markdown = new TurndownService({
  headingStyle: "atx",
  bulletListMarker: "-",
  codeBlockStyle: "fenced",
  emDelimiter: "_",
});
// HTML tables (NCD 190.10's screening frequencies) as GFM tables, not one paragraph per cell.
markdown.use(gfm.tables);

// Plain text: every element becomes its content, blocks on lines of their own, nothing escaped.
const BLOCKS = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE DD DIV DL DT FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION TABLE TBODY TD TH THEAD TFOOT TR UL".split(
    " ",
  ),
);
const plain = new TurndownService();
plain.escape = (s: string) => s;
plain.addRule("plain", {
  filter: () => true,
  replacement: (content, node) =>
    node.nodeName === "BR" ? "\n" : BLOCKS.has(node.nodeName) ? `\n\n${content}\n\n` : content,
});

// Text without markup (most short fields) needs no parse.
const hasMarkup = (s: string) => s.includes("<") || s.includes("&");
const lines = (s: string) => s.replaceAll("\r\n", "\n").replaceAll("\r", "\n");

/** An HTML field of the export as markdown (`""` for an empty field). */
export function htmlToMarkdown(html: string): string {
  if (!html.trim()) return "";
  return (hasMarkup(html) ? repairTableDividers(markdown.turndown(html)) : lines(html)).trim();
}

const DIVIDER_CELL = /^ *:?-{3,}:? *$/;
/** The cells of a markdown table line (`\|` is a pipe inside a cell), or undefined for no row. */
function tableCells(line: string): string[] | undefined {
  if (!line.startsWith("|") || !line.trimEnd().endsWith("|")) return undefined;
  return line
    .trimEnd()
    .slice(1, -1)
    .split(/(?<!\\)\|/);
}

/**
 * Rebuilds a table's divider line to the width of its header. The GFM plugin pads the divider
 * with a header cell's colspan as if it were a cell of content ("| --- |     |     |     | --- |
 * --- | --- |" under a 4-column header in NCD 190.10), which no markdown reader takes for a
 * table; the divider cells it wrote are kept, in order.
 */
export function repairTableDividers(md: string): string {
  if (!md.includes("| ---") && !md.includes("| :--")) return md;
  const out = md.split("\n");
  for (let i = 1; i < out.length; i++) {
    const cells = tableCells(out[i]!);
    const header = tableCells(out[i - 1]!);
    if (!cells || !header || !cells.some((c) => DIVIDER_CELL.test(c))) continue;
    if (!cells.every((c) => DIVIDER_CELL.test(c) || !c.trim())) continue;
    if (cells.length === header.length && cells.every((c) => DIVIDER_CELL.test(c))) continue;
    const borders = cells.filter((c) => DIVIDER_CELL.test(c)).map((c) => c.trim());
    while (borders.length < header.length) borders.push("---");
    out[i] = `| ${borders.slice(0, header.length).join(" | ")} |`;
  }
  return out.join("\n");
}

/** An HTML field as plain text, whitespace collapsed to single spaces. */
export function htmlToPlainText(html: string): string {
  if (!html.trim()) return "";
  const text = hasMarkup(html) ? plain.turndown(html) : html;
  return text.split(/\s+/).filter(Boolean).join(" ");
}

/**
 * An HTML field as plain text, one block (paragraph, list item, heading, `<br>`) a line, spaces
 * collapsed within a line: a code group's paragraph read sentence by sentence and heading by
 * heading.
 */
export function htmlToPlainLines(html: string): string {
  if (!html.trim()) return "";
  const text = hasMarkup(html) ? plain.turndown(html) : lines(html);
  return text
    .split("\n")
    .map((line) => line.split(/\s+/).filter(Boolean).join(" "))
    .filter(Boolean)
    .join("\n");
}

/**
 * The start of an HTML field as plain text, at least `min` characters when the field has that
 * many: only a prefix of a long field is parsed (a summary needs 300 characters, not 128 KB).
 */
export function htmlToPlainTextPrefix(html: string, min: number): string {
  for (let size = 4096; size < html.length; size *= 4) {
    const text = htmlToPlainText(html.slice(0, size));
    // A margin past `min`: the cut may have split the last tag, entity or word.
    if (text.length > min + 40) return text;
  }
  return htmlToPlainText(html);
}
