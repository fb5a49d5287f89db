import Table from "cli-table3";
import type { Io } from "./terminal.js";
import { stripControls } from "./terminal.js";
import { drawPlainTable } from "./draw-table.js";
import { isOneColumnEach, measureColumns } from "./text-width.js";

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** Flexible columns wrap and share the width left by the others. */
  flex?: boolean;
  /** Narrowest a flexible column gets. */
  min?: number;
  style?: (text: string, row: T) => string;
  /**
   * Never wrapped or cut (ids, which are typed back): it keeps its width, and when the table
   * cannot fit, the first such column goes on a line of its own above each row (see renderTable).
   */
  nowrap?: boolean;
  /** The column after the lead only: in the stacked layout, shown on the lead line, cut to fit. */
  beside?: boolean;
  /** Spaces before the lines a wrap adds to a line of the cell (a hanging indent). */
  hang?: number;
}

const GAP = 2;
/** Rows per cli-table3 table when a long list is printed (see renderTable). */
const ROWS_PER_TABLE = 500;
const BORDERLESS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: " ".repeat(GAP),
};

// Made on first use: making a segmenter loads ICU's break rules (~10 ms), and most text is
// split without one (splitGraphemes).
let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of a text, in order. */
function splitGraphemes(text: string): string[] {
  // One column a character, where each code unit is a cluster of its own (see text-width.ts).
  if (isOneColumnEach(text)) return text.split("");
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(text), (g) => g.segment);
}

/**
 * Terminal columns of the widest line: CJK and emoji take 2, combining marks 0. Measured as
 * cli-table3 measures (the build hands it measureColumns), since it truncates any cell it
 * finds wider.
 */
function displayWidth(text: string): number {
  return Math.max(0, ...text.split("\n").map(measureColumns));
}

/** The narrowest a flexible column gets, whatever the terminal. */
const HARD_MIN = 4;
/** Words longer than this may be broken before a table stacks (URLs, long summaries' words). */
const WORD_MAX = 24;

/**
 * The narrowest a column gets before its words would break: a flexible column's minimum, or
 * its longest word (up to WORD_MAX) when longer, never more than its content; any other
 * column's content width.
 */
function floorWidth<T>(column: Column<T>, natural: number, cells: readonly string[]): number {
  if (!column.flex || column.nowrap) return natural;
  let word = 0;
  for (const cell of cells)
    for (const w of cell.split(/\s+/)) word = Math.max(word, Math.min(WORD_MAX, measureColumns(w)));
  return Math.min(natural, Math.max(column.min ?? 10, word));
}

/**
 * Column widths that fit `total`: fixed columns keep their content width; flexible ones give up
 * room widest-first (down to their minimum, then to HARD_MIN), so one long column wraps before
 * short ones do.
 */
export function fitWidths(
  natural: number[],
  flex: boolean[],
  mins: number[],
  total: number,
): number[] {
  const widths = [...natural];
  let excess = widths.reduce((a, b) => a + b, 0) - (total - GAP * (natural.length - 1));
  // First down to each column's readable minimum; on a very narrow terminal, further down to
  // HARD_MIN, since a line wider than the terminal wraps and breaks every row of the table.
  for (const floor of [
    natural.map((w, i) => Math.min(w, mins[i] ?? 10)),
    natural.map((w) => Math.min(w, HARD_MIN)),
  ]) {
    while (excess > 0) {
      let widest = -1;
      widths.forEach((w, i) => {
        if (flex[i] && w > (floor[i] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
      });
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
      excess--;
    }
  }
  return widths;
}

function breakWord(word: string, width: number): string[] {
  if (measureColumns(word) <= width) return [word];
  const parts: string[] = [];
  let rest = splitGraphemes(word);
  let restWidth = measureColumns(word);
  while (restWidth > width) {
    // The graphemes that fit (at least one, however wide), then prefer breaking after a slash
    // (policy ids), else cut there: never drop characters.
    let n = 0;
    for (let w = 0; n < rest.length && w + measureColumns(rest[n] ?? "") <= width; n++)
      w += measureColumns(rest[n] ?? "");
    n = Math.max(n, 1);
    const slash = rest.slice(0, n).lastIndexOf("/");
    const cut = slash > 0 ? slash + 1 : n;
    const head = rest.slice(0, cut).join("");
    parts.push(head);
    rest = rest.slice(cut);
    restWidth -= measureColumns(head);
  }
  parts.push(rest.join(""));
  return parts;
}

/**
 * Wraps text to `width` columns on spaces, breaking longer words without losing characters;
 * the lines a wrap adds start with `hang` spaces.
 */
export function wrapText(text: string, width: number, hang = 0): string {
  if (width < 1) return text;
  const indent = hang > 0 && width - hang >= 8 ? " ".repeat(hang) : "";
  return text
    .split("\n")
    .map((paragraph) => {
      const lines: string[] = [];
      let line = "";
      let lineWidth = 0;
      const room = indent ? width - indent.length : width;
      for (const word of paragraph.split(/ +/).flatMap((w) => breakWord(w, room))) {
        const wordWidth = measureColumns(word);
        if (!line) {
          line = word;
          lineWidth = wordWidth;
        } else if (lineWidth + 1 + wordWidth <= width) {
          line += ` ${word}`;
          lineWidth += 1 + wordWidth;
        } else {
          lines.push(line);
          line = indent + word;
          lineWidth = indent.length + wordWidth;
        }
      }
      lines.push(line);
      return lines.join("\n");
    })
    .join("\n");
}

/** What a laid-out table is: its lines, and how many of them each row takes (header: 1). */
interface Layout {
  lines: string[];
  heights: number[];
}

function layoutTable<T>(
  columns: Column<T>[],
  rows: readonly T[],
  io: Pick<Io, "columns" | "chalk">,
  width: number,
  measure = measureOnce(rows),
): Layout {
  const measured = columns.map(measure);
  const cells = rows.map((_, ri) => measured.map((m) => m.cells[ri] ?? ""));
  const widths = fitWidths(
    measured.map((m) => m.natural),
    columns.map((c) => Boolean(c.flex) && !c.nowrap),
    measured.map((m) => m.floor),
    width,
  );
  const wrapped = cells.map((r) =>
    r.map((text, ci) => wrapText(text, widths[ci] ?? text.length, columns[ci]?.hang)),
  );
  const heights = wrapped.map((r) => Math.max(1, ...r.map((t) => t.split("\n").length)));
  const styled = wrapped.map((r, ri) =>
    r.map((text, ci) => columns[ci]?.style?.(text, rows[ri] as T) ?? text),
  );
  const head = columns.map((c) => io.chalk.bold(c.header));
  const drawn = drawPlainTable([head, ...styled], widths, BORDERLESS.middle);
  if (drawn) return { lines: drawn.map((l) => l.trimEnd()), heights };
  // cli-table3 lays out a table in time quadratic in its rows (20,000 rows: ~20 s). With fixed
  // widths and no borders, tables of ROWS_PER_TABLE rows one after another print the same text.
  const parts: string[] = [];
  for (let i = 0; i === 0 || i < styled.length; i += ROWS_PER_TABLE) {
    const table = new Table({
      head: i === 0 ? head : [],
      chars: BORDERLESS,
      colWidths: widths,
      // Cells are wrapped by wrapText above: cli-table3 would truncate long words with "…".
      wordWrap: false,
      style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
    });
    table.push(...styled.slice(i, i + ROWS_PER_TABLE));
    parts.push(table.toString());
  }
  const lines = parts
    .join("\n")
    .split("\n")
    .map((l) => l.trimEnd());
  return { lines, heights };
}

/**
 * Rows as records, when even the stacked table cannot fit its columns without breaking words:
 * each column a line of its own, `HEADER  value`, the value wrapped beside its header. The
 * first line (the table's header) is empty, as Layout's callers expect one.
 */
function layoutRecords<T>(
  columns: Column<T>[],
  rows: readonly T[],
  io: Pick<Io, "chalk">,
  width: number,
): Layout {
  const label = Math.max(...columns.map((c) => displayWidth(c.header))) + GAP;
  const lines: string[] = [""];
  const heights = rows.map((row) => {
    let height = 0;
    for (const c of columns) {
      const text = stripControls(c.value(row)).replace(/\t/g, " ");
      if (!text) continue;
      const wrapped = wrapText(text, Math.max(HARD_MIN, width - label), c.hang);
      const styled = (c.style?.(wrapped, row) ?? wrapped).split("\n");
      styled.forEach((line, i) =>
        lines.push((i === 0 ? io.chalk.dim(c.header.padEnd(label)) : " ".repeat(label)) + line),
      );
      height += styled.length;
    }
    return height;
  });
  return { lines, heights };
}

/** The column with each row's value computed on first read only. */
function readOnce<T>(column: Column<T>): Column<T> {
  const values = new Map<T, string>();
  return {
    ...column,
    value: (row) => {
      let text = values.get(row);
      if (text === undefined) values.set(row, (text = column.value(row)));
      return text;
    },
  };
}

/** Indent of the rows under their lead line in the stacked layout. */
const STACK_INDENT = 2;
/** The fewest columns a `beside` value gets on the lead line before it moves to its own. */
const BESIDE_MIN = 12;

/** Text cut to `width` columns, with `…` where it was cut. */
export function cutText(text: string, width: number): string {
  if (measureColumns(text) <= width) return text;
  let out = "";
  for (const segment of splitGraphemes(text)) {
    if (measureColumns(out + segment) > width - 1) break;
    out += segment;
  }
  return `${out}…`;
}

const oneLine = (text: string) => stripControls(text).replace(/\s+/g, " ").trim();

/** A column's cells as printed, its content width, and its width with no word broken. */
interface Measured {
  cells: string[];
  natural: number;
  floor: number;
}

/**
 * Measures a column of `rows` once: the choice of layout and the layout itself read the same
 * widths (a table into a pipe measured every cell three times).
 */
function measureOnce<T>(rows: readonly T[]): (column: Column<T>) => Measured {
  const known = new Map<Column<T>, Measured>();
  return (column) => {
    let m = known.get(column);
    if (!m) {
      // Tabs would jump to the terminal's tab stops and push the columns after them out of line.
      const cells = rows.map((row) => stripControls(column.value(row)).replace(/\t/g, " "));
      const natural = Math.max(displayWidth(column.header), ...cells.map(displayWidth));
      known.set(column, (m = { cells, natural, floor: floorWidth(column, natural, cells) }));
    }
    return m;
  };
}

/** Columns the table needs with no word broken: see floorWidth. */
export function neededWidth<T>(
  columns: Column<T>[],
  rows: readonly T[],
  measure = measureOnce(rows),
): number {
  return columns.reduce((sum, c) => sum + GAP + measure(c).floor, -GAP);
}

/**
 * Renders rows as an aligned, borderless table fitted to the terminal width. Columns marked
 * `nowrap` (ids, which are typed back) keep their full width; when the table cannot fit with
 * them whole and no word broken, the first of them leads: each row's id is printed on a line
 * of its own (with the `beside` column after it, cut to fit), the other columns as an aligned
 * table indented under it.
 */
export function renderTable<T>(
  given: Column<T>[],
  rows: readonly T[],
  io: Pick<Io, "columns" | "chalk">,
): string {
  // Each cell's text is read once: the choice of layout measures it before the layout does.
  const columns = given.map(readOnce);
  const measure = measureOnce(rows);
  const leadAt = columns.findIndex((c) => c.nowrap);
  const lead = columns[leadAt];
  const others = columns.filter((_, i) => i !== leadAt);
  if (!lead || others.length === 0 || neededWidth(columns, rows, measure) <= io.columns)
    return layoutTable(columns, rows, io, io.columns, measure).lines.join("\n");
  const leadCells = rows.map((row) => oneLine(lead.value(row)));
  const beside = others[0]?.beside ? others[0] : undefined;
  const rest = beside ? others.slice(1) : others;
  const { lines, heights } =
    neededWidth(rest, rows, measure) <= io.columns - STACK_INDENT
      ? layoutTable(rest, rows, io, io.columns - STACK_INDENT, measure)
      : layoutRecords(rest, rows, io, io.columns - STACK_INDENT);
  const pad = " ".repeat(STACK_INDENT);
  const head = beside ? `${lead.header}${" ".repeat(GAP)}${beside.header}` : lead.header;
  const out = [io.chalk.bold(head), ...(rest.length && lines[0] ? [pad + lines[0]] : [])];
  let at = 1;
  rows.forEach((row, i) => {
    const id = leadCells[i] ?? "";
    const leadLine = lead.style?.(id, row) ?? io.chalk.bold(id);
    const room = io.columns - displayWidth(id) - GAP;
    const extra = beside ? oneLine(beside.value(row)) : "";
    // A row with no id (a blank row between groups) gets no lead line of its own.
    if (!extra) out.push(...(id ? [leadLine] : []));
    else if (room >= BESIDE_MIN) out.push(`${leadLine}${" ".repeat(GAP)}${cutText(extra, room)}`);
    else out.push(leadLine, pad + cutText(extra, io.columns - STACK_INDENT));
    if (!rest.length) return;
    for (const line of lines.slice(at, at + (heights[i] ?? 1))) out.push(line ? pad + line : "");
    at += heights[i] ?? 1;
  });
  return out.join("\n");
}

/** A field's value as cell text: lists one item a line, objects as JSON, nothing as `-`. */
export function formatCellValue(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) return value.map(formatCellValue).join("\n") || "-";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The named columns (`--fields`): a known column, else the field as text under its name. */
export function pickColumns<T>(
  known: Record<string, Column<T>>,
  names: readonly string[],
): Column<T>[] {
  return names.map(
    (name) =>
      known[name] ?? {
        header: name.toUpperCase().replace(/_/g, " "),
        value: (row: T) => formatCellValue((row as Record<string, unknown>)[name]),
        // Ids (`predecessor_id`, `policy_ids`) are typed back: never wrapped.
        ...(/_ids?$/.test(name) ? { nowrap: true } : { flex: true, min: 10 }),
      },
  );
}
