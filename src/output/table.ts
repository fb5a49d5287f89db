import Table from "cli-table3";
import type { Io } from "./terminal.js";
import { stripControls } from "./terminal.js";
import { measureColumns } from "./text-width.js";

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** Flexible columns wrap and share the width left by the others. */
  flex?: boolean;
  /** Narrowest a flexible column gets. */
  min?: number;
  style?: (text: string, row: T) => string;
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

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

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
  let rest = Array.from(graphemes.segment(word), (g) => g.segment);
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

/** Wraps text to `width` columns on spaces, breaking longer words without losing characters. */
export function wrapText(text: string, width: number): string {
  if (width < 1) return text;
  return text
    .split("\n")
    .map((paragraph) => {
      const lines: string[] = [];
      let line = "";
      let lineWidth = 0;
      for (const word of paragraph.split(/ +/).flatMap((w) => breakWord(w, width))) {
        const wordWidth = measureColumns(word);
        if (!line) {
          line = word;
          lineWidth = wordWidth;
        } else if (lineWidth + 1 + wordWidth <= width) {
          line += ` ${word}`;
          lineWidth += 1 + wordWidth;
        } else {
          lines.push(line);
          line = word;
          lineWidth = wordWidth;
        }
      }
      lines.push(line);
      return lines.join("\n");
    })
    .join("\n");
}

/** Renders rows as an aligned, borderless table fitted to the terminal width. */
export function renderTable<T>(
  columns: Column<T>[],
  rows: readonly T[],
  io: Pick<Io, "columns" | "chalk">,
): string {
  // Tabs would jump to the terminal's tab stops and push the columns after them out of line.
  const cells = rows.map((row) =>
    columns.map((c) => stripControls(c.value(row)).replace(/\t/g, " ")),
  );
  const natural = columns.map((c, i) =>
    Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i] ?? ""))),
  );
  const widths = fitWidths(
    natural,
    columns.map((c) => Boolean(c.flex)),
    columns.map((c) => c.min ?? 10),
    io.columns,
  );
  const styled = cells.map((r, ri) =>
    r.map((text, ci) => {
      const wrapped = wrapText(text, widths[ci] ?? text.length);
      return columns[ci]?.style?.(wrapped, rows[ri] as T) ?? wrapped;
    }),
  );
  // cli-table3 lays out a table in time quadratic in its rows (20,000 rows: ~20 s). With fixed
  // widths and no borders, tables of ROWS_PER_TABLE rows one after another print the same text.
  const parts: string[] = [];
  for (let i = 0; i === 0 || i < styled.length; i += ROWS_PER_TABLE) {
    const table = new Table({
      head: i === 0 ? columns.map((c) => io.chalk.bold(c.header)) : [],
      chars: BORDERLESS,
      colWidths: widths,
      // Cells are wrapped by wrapText above: cli-table3 would truncate long words with "…".
      wordWrap: false,
      style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
    });
    table.push(...styled.slice(i, i + ROWS_PER_TABLE));
    parts.push(table.toString());
  }
  return parts
    .join("\n")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}
