import type { Policy } from "../contract/index.js";
import type { VersionStatus } from "../domain/status.js";
import type { Verdict } from "../views/coverage-summary.js";
import { chooseSearchColumns, readPolicyColumn, type SearchShape } from "./search-columns.js";
import { renderTable, type Column } from "./table.js";
import type { Io } from "./terminal.js";

/** Colours a status word (active green, ending yellow, upcoming cyan, retired dim). */
export function styleStatus(io: Pick<Io, "chalk">, status: VersionStatus | string): string {
  if (status === "active") return io.chalk.green(status);
  if (status === "ending") return io.chalk.yellow(status);
  if (status === "upcoming") return io.chalk.cyan(status);
  return io.chalk.dim(status);
}

/** Colours a verdict (covers green, does not cover red, mentions and mixed yellow). */
function styleVerdict(io: Pick<Io, "chalk">, text: string): string {
  const verdict = text.replace(/\n/g, " ") as Verdict;
  if (verdict === "covers") return io.chalk.green(text);
  if (verdict === "does not cover") return io.chalk.red(text);
  if (verdict === "mentions" || verdict === "mixed") return io.chalk.yellow(text);
  return io.chalk.dim(text);
}

/** Payers shown in a cell before the rest is counted (`+4 more`). */
const PAYERS_SHOWN = 3;

function showList(list: string[], most = Infinity): string {
  if (list.length === 0) return "-";
  const shown = list.slice(0, most);
  return [...shown, ...(list.length > most ? [`+${list.length - most} more`] : [])].join("\n");
}

const HEADERS: Record<string, string> = {
  policy_id: "POLICY ID",
  policy_number: "NUMBER",
  title: "TITLE",
  payer_names: "PAYER",
  payer_ids: "PAYER ID",
  lobs: "LOB",
  states: "STATES",
  scope: "PAYER: SCOPE",
  scopes: "SCOPES",
  verdict: "VERDICT",
  status: "STATUS",
  effective_from_date: "FROM",
  effective_to_date: "TO",
  score: "SCORE",
  summary: "SUMMARY",
  file_url: "FILE URL",
  file_type: "TYPE",
  listing_url: "LISTING URL",
  applicability: "APPLICABILITY",
  code_groups: "CODE GROUPS",
};

// Minimums small enough that the main job's columns (number, title, payer, scope, verdict,
// status, from) fit 80 columns under the policy ids.
const FLEX_MIN: Record<string, number> = {
  policy_number: 8,
  title: 12,
  payer_names: 8,
  payer_ids: 8,
  scope: 24,
  scopes: 20,
  summary: 20,
  file_url: 16,
  listing_url: 16,
  applicability: 24,
  code_groups: 28,
};

/**
 * The search results table: by default the id (never wrapped), number, title, each payer with
 * its own scopes (`Medicare (CMS): medicare_part_b · CA NF SF`), the verdict on the asked codes,
 * status and dates, and the score when words were given (blank where they matched nothing);
 * `fields` picks others.
 */
export function renderPolicyTable(
  items: Policy[],
  io: Pick<Io, "columns" | "chalk">,
  view: { today: string; shape: SearchShape; fields?: string[] },
): string {
  const { today, shape } = view;
  const names = view.fields ?? chooseSearchColumns("table", shape, items);
  const columns = names.map((name, i): Column<Policy> => {
    const read = (p: Policy) => readPolicyColumn(p, name, shape, today);
    const column: Column<Policy> = {
      header: HEADERS[name] ?? name.toUpperCase(),
      value: (p) => formatCell(name, read(p)),
      flex: name in FLEX_MIN,
      min: FLEX_MIN[name],
    };
    // Ids are typed back: never wrapped, wherever --fields puts them.
    if (name === "policy_id") return { ...column, flex: false, nowrap: true };
    // The title goes beside the id when the id takes a line of its own.
    if (name === "title" && i === 1) return { ...column, beside: true };
    if (name === "status") return { ...column, style: (text) => styleStatus(io, text) };
    if (name === "verdict") return { ...column, style: (text) => styleVerdict(io, text) };
    // A payer's scopes that wrap stay under it, indented, so that no line reads as another's.
    if (name === "scope") return { ...column, hang: 2 };
    return column;
  });
  return renderTable(columns, items, io);
}

function formatCell(name: string, value: unknown): string {
  if (name === "score") return typeof value === "number" ? value.toFixed(2) : "";
  if (name === "states") return Array.isArray(value) ? value.join(" ") || "-" : "-";
  if (name === "payer_names" || name === "payer_ids")
    return showList(value as string[], PAYERS_SHOWN);
  if (name === "scope") return (value as string[]).join("\n") || "-";
  if (name === "scopes") return (value as string).split(";").join("\n") || "-";
  if (Array.isArray(value)) return showList(value.map(String));
  if (value === null || value === undefined) return "-";
  return String(value);
}
