import TurndownService from "turndown";
import gfm from "@joplin/turndown-plugin-gfm";
import { createDocument, type DominoElement } from "@mixmark-io/domino";

// Markdown as the rest of the tool writes it: ATX headings, `-` bullets, fenced code.
const markdown = new TurndownService({
  headingStyle: "atx",
  bulletListMarker: "-",
  codeBlockStyle: "fenced",
  emDelimiter: "_",
});
// HTML tables (NCD 190.10's screening frequencies) as GFM tables, not one paragraph per cell.
markdown.use(gfm.tables);
// Lists numbered as the source renders them (mcd-import.md): turndown counts a `<br>` between
// `<li>`s as an item (NCD 240.4's criteria came out 1, 3, 5 ... 15) and numbers every list in
// decimal. Added rules come before turndown's own.
markdown.addRule("listItem", {
  filter: "li",
  replacement: (content, node) => {
    const item = node as unknown as DominoElement;
    const parent = item.parentNode as DominoElement | null;
    // turndown's own spacing: the marker, a full stop and two spaces; a bullet and three.
    const prefix = parent?.nodeName === "OL" ? `${markerOf(item, parent)}.  ` : "-   ";
    const paragraph = /\n$/.test(content);
    const body = content.replace(/^\n+|\n+$/g, "") + (paragraph ? "\n" : "");
    return (
      prefix +
      body.replace(/\n/g, `\n${" ".repeat(prefix.length)}`) +
      (item.nextSibling ? "\n" : "")
    );
  },
});
// A `<br>` between a list's items spaces them on the page; in markdown it is no item and no text.
markdown.addRule("breakBetweenItems", {
  filter: (node) => node.nodeName === "BR" && /^(?:OL|UL)$/.test(node.parentNode?.nodeName ?? ""),
  replacement: () => "",
});

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
  if (!hasMarkup(html)) return lines(html).trim();
  if (!/<(?:table|ol|ul|li)\b/i.test(html)) return markdown.turndown(html).trim();
  // Tables are laid out on their grid first, and lists bounded in depth: parsed here (with
  // turndown's own DOM) and handed over.
  const doc = createDocument(`<x-turndown id="root">${boundLists(html)}</x-turndown>`);
  const root = doc.getElementById("root")!;
  for (const table of Array.from(root.querySelectorAll("table"))) layOutTable(table);
  return markdown.turndown(root as unknown as TurndownService.Node).trim();
}

// Lists nested deeper than this are laid out as lines of their deepest kept item: each level
// indents every line below it, and the HTML parser's work on an element grows with its depth,
// so ten thousand levels took minutes and overflowed the stack. Real NCDs nest three deep.
const MAX_LIST_DEPTH = 16;
const LIST_TAG = /<(\/?)(ol|ul|li)\b[^>]*>/gi;
// A run of `<br>`s (a million between two items) spaces the page: two say as much in markdown.
const BREAK_RUN = /(?:<br\b[^>]*>\s*){3,}/gi;

/**
 * The HTML with its lists bounded before it is parsed, in one pass over the text: the list tags
 * nested deeper than MAX_LIST_DEPTH dropped (an item's start becomes a line break, so each item
 * keeps its line and its text as written), and runs of line breaks cut to two.
 */
export function boundLists(html: string): string {
  let depth = 0;
  return html
    .replace(LIST_TAG, (tag: string, close: string, name: string) => {
      if (name.toLowerCase() === "li") return depth <= MAX_LIST_DEPTH ? tag : close ? "" : "<br>";
      const was = depth;
      depth = close ? Math.max(0, depth - 1) : depth + 1;
      return Math.max(was, depth) > MAX_LIST_DEPTH ? "" : tag;
    })
    .replace(BREAK_RUN, "<br><br>");
}

// Each `<ol>`'s item numbers, worked out once per list (a list of a million items costs a
// million steps, not a million squared).
const numbers = new WeakMap<DominoElement, Map<DominoElement, bigint>>();

/** A list item's marker as the source renders it: its number in the list's `type`, from `start`. */
function markerOf(item: DominoElement, list: DominoElement): string {
  let byItem = numbers.get(list);
  if (!byItem) {
    byItem = new Map();
    let n = integerAttribute(list, "start") ?? 1n;
    for (const child of Array.from(list.children))
      if (child.nodeName === "LI") {
        n = integerAttribute(child, "value") ?? n;
        byItem.set(child, n++);
      }
    numbers.set(list, byItem);
  }
  return formatNumber(byItem.get(item) ?? 1n, list.getAttribute("type") ?? "1");
}

/** An integer attribute as written (any size), or undefined. */
function integerAttribute(element: DominoElement, name: string): bigint | undefined {
  const value = element.getAttribute(name)?.trim() ?? "";
  return /^[-+]?\d{1,64}$/.test(value) ? BigInt(value) : undefined;
}

const ROMAN: Array<[number, string]> = [
  [1000, "m"],
  [900, "cm"],
  [500, "d"],
  [400, "cd"],
  [100, "c"],
  [90, "xc"],
  [50, "l"],
  [40, "xl"],
  [10, "x"],
  [9, "ix"],
  [5, "v"],
  [4, "iv"],
  [1, "i"],
];

/** A number in an `<ol type>`: a/A letters, i/I roman (1-3999), else decimal, as browsers do. */
function formatNumber(n: bigint, type: string): string {
  if ((type === "a" || type === "A") && n > 0n) {
    let letters = "";
    for (let k = n; k > 0n; k = (k - 1n) / 26n)
      letters = String.fromCharCode(97 + Number((k - 1n) % 26n)) + letters;
    return type === "A" ? letters.toUpperCase() : letters;
  }
  if ((type === "i" || type === "I") && n > 0n && n < 4000n) {
    let rest = Number(n);
    let roman = "";
    for (const [value, digits] of ROMAN) for (; rest >= value; rest -= value) roman += digits;
    return type === "I" ? roman.toUpperCase() : roman;
  }
  return n.toString();
}

/**
 * How far a cell spans: the attribute as HTML reads it (1 when absent or nonsense; a `rowspan`
 * of 0 runs to the end of its section, `toEnd`), capped as HTML caps it.
 */
function span(cell: DominoElement, name: string, max: number, toEnd = 1): number {
  const value = Number.parseInt(cell.getAttribute(name) ?? "", 10);
  if (value === 0 && name === "rowspan") return Math.max(1, toEnd);
  return Number.isFinite(value) && value > 1 ? Math.min(value, max) : 1;
}

// A table laid out may grow by this factor (and this many cells) over its source cells at most:
// spans of a real table add a few cells; a hostile one ("colspan=1000 rowspan=65534") is left
// as written rather than turned into millions of cells for the converter.
const GROWTH = 4;
const GROWTH_SLACK = 64;

/**
 * Puts every cell of a table in its own grid column: a cell spanning columns is followed by
 * empty cells, a row under a cell spanning rows gets an empty cell where that one stands, and
 * every row is filled out to the widest. Markdown tables have no spans, and the GFM plugin would
 * otherwise shift the next rows' cells left (NCD 240.1: a criterion under "Assessment") and
 * widen the divider under a spanning header (NCD 190.10). Spans end with their section
 * (`thead`, `tbody`, `tfoot`), as in HTML.
 */
function layOutTable(table: DominoElement): void {
  const rows = Array.from(table.querySelectorAll("tr"))
    .filter((tr) => tr.closest("table") === table)
    .map((row) => ({
      row,
      cells: Array.from(row.children).filter((c) => /^t[dh]$/i.test(c.tagName)),
    }));
  const limit = GROWTH * rows.reduce((n, r) => n + r.cells.length, 0) + GROWTH_SLACK;
  // First the plan, bounded by the limit: where each row needs blanks (before a cell, or null
  // for the end of the row).
  const plans: Array<Array<DominoElement | null>> = [];
  let planned = 0;
  let covered: number[] = []; // rows each column is still covered for, by a cell above
  let width = 0;
  // Rows left in each row's section, itself included (what a rowspan of 0 runs to).
  const left = rows.map(() => 1);
  for (let i = rows.length - 2; i >= 0; i--)
    if (rows[i]!.row.parentElement === rows[i + 1]!.row.parentElement) left[i] = left[i + 1]! + 1;
  for (const [index, { row, cells }] of rows.entries()) {
    if (index === 0 || row.parentElement !== rows[index - 1]!.row.parentElement) covered = [];
    const blanks: Array<DominoElement | null> = [];
    let column = 0;
    const blankAt = (before: DominoElement | null) => {
      blanks.push(before);
      column++;
      return ++planned <= limit;
    };
    for (const [i, cell] of cells.entries()) {
      while ((covered[column] ?? 0) > 0) {
        covered[column]!--;
        if (!blankAt(cell)) return;
      }
      const across = span(cell, "colspan", 1000);
      const down = span(cell, "rowspan", 65534, left[index]);
      for (let k = 0; k < across; k++) covered[column + k] = down - 1;
      column++;
      if (++planned > limit) return;
      for (let k = 1; k < across; k++) if (!blankAt(cells[i + 1] ?? null)) return;
    }
    // Columns to the right still covered from above.
    let last = covered.length - 1;
    while (last >= column && !((covered[last] ?? 0) > 0)) last--;
    while (column <= last) {
      if ((covered[column] ?? 0) > 0) covered[column]!--;
      if (!blankAt(null)) return;
    }
    width = Math.max(width, column);
    plans.push(blanks);
  }
  if (width * rows.length > limit) return;
  // Then the layout: every row filled out to the widest.
  const doc = table.ownerDocument;
  for (const [index, { row, cells }] of rows.entries()) {
    const header = cells.length > 0 && cells.every((c) => /^th$/i.test(c.tagName));
    const blank = () => doc.createElement(header ? "th" : "td");
    for (const cell of cells) {
      cell.removeAttribute("colspan");
      cell.removeAttribute("rowspan");
    }
    const blanks = plans[index]!;
    for (const before of blanks) row.insertBefore(blank(), before);
    for (let n = cells.length + blanks.length; n < width; n++) row.appendChild(blank());
  }
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
