import type { Envelope, Policy } from "../contract/index.js";
import type { ListOutput } from "./list.js";
import { markupToText } from "../domain/plain-text.js";
import {
  chooseSearchColumns,
  readPolicyColumn,
  readSearchShape,
  widenSearchBody,
  type SearchShape,
} from "./search-columns.js";
import type { Io } from "./terminal.js";
import { POLICY_COLUMNS, POLICY_FIELDS } from "./columns.js";

export { chooseSearchColumns, readPolicyColumn, readSearchShape, widenSearchBody };
export type { SearchShape };

type Json = Record<string, unknown>;
const objectOf = (v: unknown): Json =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};

/**
 * A CSV row: the chosen columns, flat (the summary as plain text); without `--fields`, any
 * field the server added too.
 */
export function flattenPolicy(
  p: Policy,
  columns: readonly string[],
  shape: SearchShape,
  today: string,
  keepExtra: boolean,
  plain: (text: string) => string = (text) => text,
): Json {
  const row: Json = {};
  for (const name of columns) row[name] = readPolicyColumn(p, name, shape, today);
  if (typeof row.summary === "string") row.summary = plain(row.summary);
  if (keepExtra)
    for (const [key, value] of Object.entries(p))
      if (!POLICY_FIELDS.includes(key) && !POLICY_COLUMNS.includes(key)) row[key] = value;
  return row;
}

/**
 * The stderr line when `q` matched nothing (rule: words rank and never filter). Only the first
 * page under relevance order can tell: matching versions come first, with a score.
 */
export function describeUnmatchedWords(body: Json, page: Envelope<Policy>): string | undefined {
  const policies = objectOf(body.policies);
  const q = typeof policies.q === "string" ? policies.q.trim() : "";
  if (!q || page.offset !== 0 || page.data.length === 0) return undefined;
  if (body.sort !== undefined && body.sort !== "relevance") return undefined;
  if (page.data.some((p) => typeof p.score === "number" && p.score > 0)) return undefined;
  return `nothing matched the words "${q}": the list shows what passed the other filters (words rank results, they do not filter them)`;
}

/** How `search` shows its results: the table, the flat CSV rows, and the notices. */
export function makeSearchView(
  shape: SearchShape,
  today: string,
  io: Pick<Io, "columns" | "chalk">,
  fields: string[] | undefined,
): Omit<ListOutput<Policy>, "format" | "io" | "all" | "notice" | "fields"> {
  const columns = fields ?? chooseSearchColumns("csv", shape);
  return {
    renderTable: async (items) =>
      (await import("./policies.js")).renderPolicyTable(items, io, { today, shape, fields }),
    moreHint: (next) => `More results: add --offset ${next}, or --all for every page.`,
    emptyMessage: "No policies match.",
    csvColumns: columns,
    csvRow: (p) => flattenPolicy(p, columns, shape, today, !fields, markupToText),
  };
}

/** Passes a page on, warning first when its words matched nothing (see describeUnmatchedWords). */
export function warnUnmatchedWords(
  body: Json,
  page: Envelope<Policy>,
  warn: (message: string) => void,
): Envelope<Policy> {
  const unmatched = describeUnmatchedWords(body, page);
  if (unmatched) warn(unmatched);
  return page;
}
