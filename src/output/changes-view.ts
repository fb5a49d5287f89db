import { describeRetirement } from "../domain/retirement.js";
import type { DocumentChange } from "../snapshot/change-table.js";
import type { FutureRetirement } from "../snapshot/cms-record-table.js";
import { stripControls } from "./terminal.js";

const link = (l: DocumentChange["codes_gained"][number]) => `${l.code_system}:${l.code}`;

/** `data changes` as text: a line per document, its versions, code links gained and lost. */
export function renderChanges(
  changes: readonly DocumentChange[],
  asOf: string | null,
  retirements: readonly FutureRetirement[] = [],
): string {
  const lines: string[] = [];
  if (!changes.length)
    lines.push(`No changes recorded${asOf ? ` (the snapshot is as of ${asOf})` : ""}.`);
  for (const c of changes) {
    const versions =
      c.change === "new"
        ? (c.new_version ?? "")
        : `${c.old_version ?? "-"} -> ${c.new_version ?? "retired"}`;
    lines.push(`${c.as_of ?? "-"}  ${c.change.padEnd(7)}  ${c.policy_number}  ${c.title}`);
    lines.push(`    ${versions}`);
    if (c.codes_gained.length)
      lines.push(
        `    + ${c.codes_gained.length} code links: ${c.codes_gained.slice(0, 8).map(link).join(", ")}${c.codes_gained.length > 8 ? ", …" : ""}`,
      );
    if (c.codes_lost.length)
      lines.push(
        `    - ${c.codes_lost.length} code links: ${c.codes_lost.slice(0, 8).map(link).join(", ")}${c.codes_lost.length > 8 ? ", …" : ""}`,
      );
    if (c.reason) lines.push(`    reason: ${c.reason}`);
    if (c.note) lines.push(`    note: ${c.note}`);
  }
  if (retirements.length) {
    lines.push("", `Retirements CMS has announced (${retirements.length}):`);
    for (const r of retirements)
      lines.push(
        `  ${stripControls(r.policy_number ?? r.id)}  ${stripControls(r.title ?? "(not in the snapshot)")}: ${describeRetirement(r.retire_on)}`,
      );
  }
  return lines.join("\n");
}

/** A change as a CSV or ndjson row: the code links as `SYSTEM:CODE RELATIONSHIP`, `; ` between. */
export function flattenChange(c: DocumentChange): Record<string, unknown> {
  const links = (list: DocumentChange["codes_gained"]) =>
    list.map((l) => `${link(l)} ${l.relationship}`).join("; ");
  return { ...c, codes_gained: links(c.codes_gained), codes_lost: links(c.codes_lost) };
}
