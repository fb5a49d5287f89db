import type { PolicyUpdate } from "../contract/index.js";
import { pickColumns, renderTable, type Column } from "./table.js";
import type { Io } from "./terminal.js";

/** One table row: an update, with its date and payer shown only where a group starts. */
export interface UpdateRow {
  update: PolicyUpdate | null;
  showDate: boolean;
  showPayer: boolean;
}

/**
 * Groups updates by effective date, then payer, keeping the order in which each group first
 * appears (the server's order: newest first in the rules); a blank row separates dates.
 */
export function groupUpdates(items: readonly PolicyUpdate[]): UpdateRow[] {
  const byDate = new Map<string, Map<string, PolicyUpdate[]>>();
  for (const u of items) {
    let payers = byDate.get(u.effective_from_date);
    if (!payers) byDate.set(u.effective_from_date, (payers = new Map()));
    const list = payers.get(u.payer_id);
    if (list) list.push(u);
    else payers.set(u.payer_id, [u]);
  }
  const rows: UpdateRow[] = [];
  for (const payers of byDate.values()) {
    if (rows.length) rows.push({ update: null, showDate: false, showPayer: false });
    let firstOfDate = true;
    for (const list of payers.values())
      list.forEach((update, i) => {
        rows.push({ update, showDate: firstOfDate, showPayer: i === 0 });
        firstOfDate = false;
      });
  }
  return rows;
}

/**
 * The `updates` table: effective date, payer, change type, title, policy id (the policy number
 * is left to json/csv: the id carries it, and the width is better spent on titles). With
 * `--fields`, those columns in the server's order, ungrouped.
 */
export function renderUpdatesTable(
  items: PolicyUpdate[],
  io: Pick<Io, "columns" | "chalk">,
  fields?: readonly string[],
): string {
  if (fields) {
    const known: Record<string, Column<PolicyUpdate>> = {
      effective_from_date: { header: "EFFECTIVE", value: (u) => u.effective_from_date },
      payer_display_name: { header: "PAYER", value: (u) => u.payer_display_name, flex: true },
      change_type: { header: "CHANGE", value: (u) => u.change_type },
      title: { header: "TITLE", value: (u) => u.title, flex: true, min: 20 },
      policy_id: { header: "POLICY ID", value: (u) => u.policy_id, nowrap: true },
    };
    return renderTable(pickColumns(known, fields), items, io);
  }
  const cell = (row: UpdateRow, pick: (u: PolicyUpdate) => string) =>
    row.update ? pick(row.update) : "";
  const columns: Column<UpdateRow>[] = [
    {
      header: "EFFECTIVE",
      value: (r) => (r.showDate ? cell(r, (u) => u.effective_from_date) : ""),
      style: (text) => io.chalk.bold(text),
    },
    {
      header: "PAYER",
      value: (r) => (r.showPayer ? cell(r, (u) => u.payer_display_name) : ""),
      flex: true,
      min: 12,
    },
    {
      header: "CHANGE",
      // With --changes, the classified kinds stand for the API's change type; a list of them
      // wraps at its commas rather than taking the width of the titles and ids.
      flex: true,
      min: 16,
      value: (r) =>
        cell(r, (u) => (Array.isArray(u.changes) ? u.changes.join(", ") : u.change_type)),
      style: (text) =>
        text === "new" ? io.chalk.green(text) : text ? io.chalk.yellow(text) : text,
    },
    { header: "TITLE", value: (r) => cell(r, (u) => u.title), flex: true, min: 20 },
    // CMS's reason, where a pulled snapshot has it (`updates --changes`).
    ...(items.some((u) => (u as { cms_reason?: string }).cms_reason)
      ? [
          {
            header: "CMS REASON",
            value: (r: UpdateRow) =>
              cell(r, (u) => (u as { cms_reason?: string }).cms_reason ?? ""),
            flex: true,
            min: 16,
          },
        ]
      : []),
    // Ids are typed back: never wrapped (the table stacks under them when it cannot fit).
    { header: "POLICY ID", value: (r) => cell(r, (u) => u.policy_id), nowrap: true },
  ];
  return renderTable(columns, groupUpdates(items), io);
}
