import { stringify } from "csv-stringify/sync";
import { stripControls } from "./terminal.js";

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value))
    // A null inside a list (a code group without a category) is empty, as a null field is,
    // never the word "null".
    return value
      .map((v) => (v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v)))
      .join(";");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// What a spreadsheet runs as a formula when a cell starts with it (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as a spreadsheet should get it (cli.md Output, "CSV for spreadsheets"): terminal
 * controls from the data stripped as in tables (line ends kept), and a leading `'` before a
 * cell a spreadsheet would run as a formula.
 */
export function guardCell(text: string): string {
  const clean = stripControls(text, true);
  return FORMULA_START.test(clean) ? `'${clean}` : clean;
}

/** The UTF-8 byte-order mark `--bom` writes first (what Excel on Windows needs for UTF-8). */
export const BOM = "\ufeff";

/**
 * RFC 4180 rows of flat items (list-valued fields joined with `;`), each cell guarded for
 * spreadsheets. The header comes from the first item's keys and is passed back so later pages
 * keep the same columns; `bom` puts the byte-order mark before the header.
 */
export function toCsv(
  items: Array<Record<string, unknown>>,
  header: string[] | undefined,
  bom: boolean,
  withHeader = header === undefined,
): { text: string; header: string[] | undefined } {
  const first = items[0];
  const columns = header ?? (first ? Object.keys(first) : undefined);
  if (!columns) return { text: "", header: undefined };
  const rows = items.map((item) => columns.map((c) => guardCell(cell(item[c]))));
  // csv-stringify quotes a line break only when it matches the record delimiter: a bare `\n`
  // inside a field (markdown criteria) must be quoted too (RFC 4180).
  const text = stringify(withHeader ? [columns, ...rows] : rows, {
    record_delimiter: "windows",
    quoted_match: /[\r\n]/,
  });
  return { text: withHeader && bom ? BOM + text : text, header: columns };
}
