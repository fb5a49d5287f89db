import type { Verdict } from "../views/coverage-summary.js";
import {
  groupColumns,
  type Matrix,
  type MatrixCell,
  type MatrixRow,
  type Variation,
} from "../views/matrix.js";
import { statewideOf } from "../domain/sub-states.js";
import { renderCodeHeading } from "./code-report-view.js";
import { renderTable, wrapText, type Column } from "./table.js";
import { stripControls, type Io } from "./terminal.js";
import { measureColumns } from "./text-width.js";

type ViewIo = Pick<Io, "columns" | "chalk">;

const GAP = 2;

function styleVerdict(io: ViewIo, text: string): string {
  const [first = "", ...rest] = text.split("\n");
  const word = first as Verdict;
  const styled =
    word === "covers"
      ? io.chalk.green(first)
      : word === "does not cover"
        ? io.chalk.red(first)
        : word === "mentions"
          ? io.chalk.cyan(first)
          : word === "mixed"
            ? io.chalk.magenta(first)
            : io.chalk.dim(first);
  return [styled, ...rest.map((l) => io.chalk.dim(l))].join("\n");
}

/** A cell's text: the verdict, then one policy number a line (`-` for none). */
function cellText(c: MatrixCell): string {
  return c.verdict === "none" ? "-" : [c.verdict, ...c.policy_numbers].join("\n");
}

const columnName = (s: string | null) => s ?? "nationwide";

function widthOf(text: string): number {
  return Math.max(0, ...stripControls(text).split("\n").map(measureColumns));
}

/**
 * Splits the state columns into pages that fit the terminal beside the row labels, so a wide
 * matrix prints as several narrower tables (each repeating the labels) instead of wrapping.
 */
export function pageColumns(
  labelWidth: number,
  widths: readonly number[],
  total: number,
): number[][] {
  const pages: number[][] = [];
  let page: number[] = [];
  let used = labelWidth;
  widths.forEach((w, i) => {
    if (page.length > 0 && used + GAP + w > total) {
      pages.push(page);
      page = [];
      used = labelWidth;
    }
    page.push(i);
    used += GAP + w;
  });
  if (page.length) pages.push(page);
  return pages;
}

/**
 * States in words, each state's parts beside it (`CA (and its parts NF SF)`, `DN QN (parts of
 * NY)`), so a part is never read as a state of its own.
 */
function nameStates(states: readonly string[], sep: string): string {
  const homes = new Map<string, string[]>();
  for (const code of states) {
    const home = statewideOf(code) ?? code;
    homes.set(home, [...(homes.get(home) ?? []), code]);
  }
  return [...homes]
    .map(([home, codes]) => {
      const parts = codes.filter((c) => c !== home);
      if (parts.length === 0) return home;
      const named = parts.join(sep);
      return codes.includes(home)
        ? `${home} (and its part${parts.length > 1 ? "s" : ""} ${named})`
        : `${named} (part${parts.length > 1 ? "s" : ""} of ${home})`;
    })
    .join(sep);
}

function describeVerdicts(v: Partial<Record<Verdict, string[]>>, sep = " "): string {
  const parts = Object.entries(v).filter(([verdict]) => verdict !== "none");
  const none = v.none;
  const text = parts.map(([verdict, where]) => `${verdict} in ${nameStates(where, sep)}`);
  if (none?.length)
    text.push(
      `no policy in ${none.length <= 3 ? nameStates(none, sep) : `the ${none.length} other states`}`,
    );
  return text.join("; ");
}

/** The lines that say where coverage varies (or that it does not); alike states share a line. */
export function renderVariation(v: Variation, io: ViewIo): string {
  if (v.by_state.length === 0 && v.by_payer.length === 0)
    return io.chalk.dim("Coverage does not vary across the cells shown.");
  const lines: string[] = [];
  for (const r of v.by_state)
    lines.push(`Varies by state for ${r.payer_name} ${r.lob}: ${describeVerdicts(r.verdicts)}.`);
  const byPayer = new Map<string, string[]>();
  for (const s of v.by_payer) {
    const text = describeVerdicts(s.verdicts, ", ").replace(/ in /g, " for ");
    byPayer.set(text, [...(byPayer.get(text) ?? []), s.state]);
  }
  for (const [text, states] of byPayer)
    lines.push(`Varies by payer in ${states.join(" ")}: ${text}.`);
  return lines.map((l) => wrapText(l, io.columns)).join("\n");
}

/**
 * `coverage matrix`: heading, the grid, and where it varies. States whose cells are alike share
 * a column; a grid still wider than the terminal prints in pages of columns.
 */
export function renderMatrix(m: Matrix, io: ViewIo): string {
  const head = renderCodeHeading(m, io);
  if (m.rows.length === 0) return `${head}\n\n${io.chalk.dim("No policy lists this code here.")}`;
  const width = m.states.length;
  const cell = (r: number, c: number) => m.cells[r * width + c]!;
  const groups = groupColumns(m);
  const rows = m.rows.map((row, r) => ({ row, r }));
  // One label column, the payer over its LOB category: the width goes to the state columns.
  const labelWidth = Math.min(
    20,
    Math.max(11, ...m.rows.flatMap((x) => [widthOf(x.payer_name), widthOf(x.lob)])),
  );
  const labels: Column<{ row: MatrixRow; r: number }>[] = [
    {
      header: "PAYER / LOB",
      value: ({ row }) => `${wrapText(row.payer_name, labelWidth)}\n${row.lob}`,
      flex: true,
      min: labelWidth,
      style: (text) => {
        const lines = text.split("\n");
        const last = lines.pop() ?? "";
        return [...lines, io.chalk.dim(last)].join("\n");
      },
    },
  ];
  const cellWidths = groups.map((g) =>
    Math.max(...m.rows.map((_, r) => widthOf(cellText(cell(r, g.column))))),
  );
  // A header of many states wraps to the width of its cells (at least that of one state).
  const headers = groups.map((g, i) =>
    wrapText(g.states.map(columnName).join(" "), Math.max(cellWidths[i]!, 10)),
  );
  const widths = groups.map((_, i) => Math.max(cellWidths[i]!, widthOf(headers[i]!)));
  const pages = pageColumns(labelWidth, widths, io.columns);
  const parts = [head, ""];
  pages.forEach((page, p) => {
    if (pages.length > 1) parts.push(io.chalk.dim(`Columns, part ${p + 1} of ${pages.length}`));
    const columns = [
      ...labels,
      ...page.map((i): Column<{ row: MatrixRow; r: number }> => ({
        header: headers[i]!,
        value: ({ r }) => cellText(cell(r, groups[i]!.column)),
        style: (text) => styleVerdict(io, text),
      })),
    ];
    parts.push(renderTable(columns, rows, io), "");
  });
  parts.push(renderVariation(m.variation, io));
  return parts.join("\n");
}
