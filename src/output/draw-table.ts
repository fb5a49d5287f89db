import { measureColumns } from "./text-width.js";

// What cli-table3 0.6 (MIT) draws for our tables, which are borderless, of fixed column widths,
// unpadded, left-aligned and unwrapped, drawn here without it when no line of a cell is wider
// than its column (cli-table3 would cut it with "…"; renderTable leaves that case to it).
// cli-table3 measured and re-merged its options once per cell and line: ~16 ms of a search's
// 20-row table. Its handling of colours across a cell's lines (colorizeLines) is ported as is;
// a property test checks that both draw the same bytes.

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[(?:\d*;){0,5}\d*m/g;
// eslint-disable-next-line no-control-regex
const SGR_CAPTURE = /\u001b\[((?:\d*;){0,5}\d*)m/g;

/** The codes cli-table3 tracks across lines by name, and back from their codes. */
const BY_CODE = new Map<string, { set: string; to: boolean }>();
const BY_NAME = new Map<string, { on: string; off: string }>();
for (const [name, on, off] of [
  ["bold", 1, 22],
  ["italics", 3, 23],
  ["underline", 4, 24],
  ["inverse", 7, 27],
  ["strikethrough", 9, 29],
] as const) {
  BY_CODE.set(`\u001b[${on}m`, { set: name, to: true });
  BY_CODE.set(`\u001b[${off}m`, { set: name, to: false });
  BY_NAME.set(name, { on: `\u001b[${on}m`, off: `\u001b[${off}m` });
}

type State = Record<string, string | boolean>;

function updateState(state: State, match: RegExpExecArray): void {
  const params = match[1];
  const code = params ? parseInt(params.split(";")[0] ?? "", 10) : 0;
  if ((code >= 30 && code <= 39) || (code >= 90 && code <= 97)) {
    state.lastForegroundAdded = match[0];
    return;
  }
  if ((code >= 40 && code <= 49) || (code >= 100 && code <= 107)) {
    state.lastBackgroundAdded = match[0];
    return;
  }
  if (code === 0) {
    for (const key of Object.keys(state)) delete state[key];
    return;
  }
  const info = BY_CODE.get(match[0]);
  if (info) state[info.set] = info.to;
}

function readState(line: string): State {
  const state: State = {};
  SGR_CAPTURE.lastIndex = 0;
  for (let m = SGR_CAPTURE.exec(line); m !== null; m = SGR_CAPTURE.exec(line))
    updateState(state, m);
  return state;
}

/**
 * `line` with the codes that close (`off`, after it) or reopen (`on`, before it) the styles
 * left open in `state`, as cli-table3 wraps a cell's lines.
 */
function wrapState(state: State, line: string, side: "off" | "on"): string {
  const { lastBackgroundAdded: bg, lastForegroundAdded: fg } = state;
  delete state.lastBackgroundAdded;
  delete state.lastForegroundAdded;
  const codes: string[] = [];
  for (const key of Object.keys(state)) if (state[key]) codes.push(BY_NAME.get(key)?.[side] ?? "");
  if (bg && bg !== "\u001b[49m") codes.push(side === "off" ? "\u001b[49m" : String(bg));
  if (fg && fg !== "\u001b[39m") codes.push(side === "off" ? "\u001b[39m" : String(fg));
  return side === "off" ? line + codes.join("") : codes.reverse().join("") + line;
}

/** A cell's lines, each closing the styles it opened and reopening those of the line before. */
function splitCellLines(text: string): string[] {
  const lines = text.split("\n");
  if (!text.includes("\u001b")) return lines;
  let state: State = {};
  return lines.map((raw) => {
    const line = wrapState(state, raw, "on");
    state = readState(line);
    return wrapState({ ...state }, line, "off");
  });
}

/** Columns a drawn line takes (cli-table3's strlen: colour codes take none). */
function lineWidth(line: string): number {
  return measureColumns(line.includes("\u001b") ? line.replace(SGR, "") : line);
}

/**
 * The lines cli-table3 draws for `rows` (the header first, if any) in columns of `widths`
 * separated by `gap`; null when a line is wider than its column, which cli-table3 would cut.
 */
export function drawPlainTable(
  rows: ReadonlyArray<readonly string[]>,
  widths: readonly number[],
  gap: string,
): string[] | null {
  const out: string[] = [];
  for (const row of rows) {
    const cells = row.map(splitCellLines);
    const measured = cells.map((lines) => lines.map(lineWidth));
    let height = 1;
    for (let x = 0; x < cells.length; x++) {
      const width = widths[x] ?? 0;
      const lines = measured[x] as number[];
      if (lines.length > height) height = lines.length;
      for (const w of lines) if (w > width) return null;
    }
    for (let l = 0; l < height; l++) {
      let line = "";
      for (let x = 0; x < cells.length; x++) {
        const width = widths[x] ?? 0;
        const text = (cells[x] as string[])[l];
        if (x > 0) line += gap;
        line +=
          text === undefined
            ? " ".repeat(width)
            : text + " ".repeat(width - ((measured[x] as number[])[l] as number));
      }
      // cli-table3 leaves out a line that draws nothing.
      if (line.length) out.push(line);
    }
  }
  return out;
}
