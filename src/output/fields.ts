import type { OutputFormat } from "./format.js";
import { UsageError } from "../errors.js";

/** What `--fields` may name: the item's own fields (json, ndjson) and the table/CSV columns. */
export interface FieldNames {
  item: readonly string[];
  columns: readonly string[];
}

/** Whether a format shows columns (table, csv) rather than the items themselves (json, ndjson). */
export function isTabular(format: OutputFormat): boolean {
  return format === "table" || format === "csv";
}

/**
 * `--fields a,b` (repeatable, comma-separated, any case) checked against the names the format
 * accepts; undefined when not given. A bad name is exit 2 with the list of valid ones.
 */
export function parseFields(
  given: readonly string[] | undefined,
  names: FieldNames,
  format: OutputFormat,
): string[] | undefined {
  if (given === undefined) return undefined;
  const valid = isTabular(format) ? names.columns : names.item;
  const what = isTabular(format) ? `${format} columns` : `fields of each ${format} item`;
  const asked = given.flatMap((g) => g.split(",")).map((n) => n.trim().toLowerCase());
  if (asked.every((n) => n === ""))
    throw new UsageError("--fields needs at least one name", `The ${what}: ${valid.join(", ")}.`);
  const bad = asked.filter((n) => n !== "" && !valid.includes(n));
  if (bad.length)
    throw new UsageError(
      `--fields: ${bad.map((b) => `'${b}'`).join(", ")} ${bad.length > 1 ? "are not" : "is not"} among the ${what}`,
      `The ${what}: ${valid.join(", ")}.`,
    );
  return [...new Set(asked.filter((n) => n !== ""))];
}
