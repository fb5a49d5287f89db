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

/**
 * RFC 4180 rows of flat items (list-valued fields joined with `;`). The header comes from the
 * first item's keys and is passed back so later pages keep the same columns.
 */
export function toCsv(
  items: Array<Record<string, unknown>>,
  header: string[] | undefined,
  toTerminal: boolean,
  withHeader = header === undefined,
): { text: string; header: string[] | undefined } {
  const first = items[0];
  const columns = header ?? (first ? Object.keys(first) : undefined);
  if (!columns) return { text: "", header: undefined };
  const rows = items.map((item) =>
    columns.map((c) => {
      const text = cell(item[c]);
      return toTerminal ? stripControls(text) : text;
    }),
  );
  // csv-stringify quotes a line break only when it matches the record delimiter: a bare `\n`
  // inside a field (markdown criteria) must be quoted too (RFC 4180).
  const text = stringify(withHeader ? [columns, ...rows] : rows, {
    record_delimiter: "windows",
    quoted_match: /[\r\n]/,
  });
  return { text, header: columns };
}
