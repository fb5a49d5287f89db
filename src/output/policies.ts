import type { Policy } from "../contract/index.js";
import { versionState, type VersionState } from "../engine/time.js";
import type { Column } from "./table.js";
import { renderTable } from "./table.js";
import type { Io } from "./terminal.js";

/** Colours a version state word (active green, upcoming yellow, retired dim). */
export function styleState(io: Pick<Io, "chalk">, state: VersionState): string {
  if (state === "active") return io.chalk.green(state);
  if (state === "upcoming") return io.chalk.yellow(state);
  return io.chalk.dim(state);
}

/** The search results table: id, number, title, state, dates, and score when ranked. */
export function renderPolicyTable(
  items: Policy[],
  io: Pick<Io, "columns" | "chalk">,
  today: string,
): string {
  const ranked = items.some((p) => typeof p.score === "number");
  const columns: Column<Policy>[] = [
    // Minimums small enough that the ranked table (7 columns) still fits 80 columns.
    { header: "POLICY ID", value: (p) => p.policy_id, flex: true, min: 14 },
    { header: "NUMBER", value: (p) => p.policy_number, flex: true, min: 8 },
    { header: "TITLE", value: (p) => p.title, flex: true, min: 12 },
    {
      header: "STATE",
      value: (p) => versionState(p, today),
      style: (text) => styleState(io, text as VersionState),
    },
    { header: "FROM", value: (p) => p.effective_from_date },
    { header: "TO", value: (p) => p.effective_to_date ?? "-" },
  ];
  if (ranked)
    columns.push({
      header: "SCORE",
      value: (p) => (typeof p.score === "number" ? p.score.toFixed(2) : "-"),
    });
  return renderTable(columns, items, io);
}
