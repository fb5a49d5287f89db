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
  if (!/<table/i.test(html)) return markdown.turndown(html).trim();
  // Tables are laid out on their grid first: parsed here (with turndown's own DOM) and handed over.
  const doc = createDocument(`<x-turndown id="root">${html}</x-turndown>`);
  const root = doc.getElementById("root")!;
  for (const table of Array.from(root.querySelectorAll("table"))) layOutTable(table);
  return markdown.turndown(root as unknown as TurndownService.Node).trim();
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
