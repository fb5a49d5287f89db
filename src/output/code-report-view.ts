import type { Relationship } from "../contract/index.js";
import type { CodePolicyRow, CodeReport } from "../views/code-view.js";
import { describeStatusDates } from "../domain/status.js";
import { styleStatus } from "./policies.js";
import { wrapText } from "./table.js";
import { stripControls, type Io } from "./terminal.js";

type ViewIo = Pick<Io, "columns" | "chalk"> & { stdoutIsTTY?: boolean };

const TITLES: Record<Relationship, string> = {
  COVERS: "Covers",
  DOES_NOT_COVER: "Does not cover",
  REFERENCES: "Mentions (no coverage decision)",
};

/** Whether a code view (a code report or a matrix) found no policy listing the code. */
function listsNothing(r: object): boolean {
  if ("groups" in r) return (r as CodeReport).groups.every((g) => g.policies.length === 0);
  return "rows" in r && Array.isArray(r.rows) && r.rows.length === 0;
}

/** The heading of a code view: `CPT 97110: description` and the day it looks at. */
export function renderCodeHeading(
  r: Pick<CodeReport, "code_system" | "code" | "description" | "effective_on">,
  io: ViewIo,
): string {
  const description = r.description
    ? stripControls(r.description)
    : io.chalk.dim(
        listsNothing(r)
          ? "no description known (no policy lists it: is it a real code?)"
          : "no description known",
      );
  const when = r.effective_on
    ? `Policies in effect on ${r.effective_on}`
    : "Every version, whatever its dates";
  return `${io.chalk.bold(`${r.code_system} ${stripControls(r.code)}`)}: ${description}\n${io.chalk.dim(when)}`;
}

/**
 * One policy: its id, status and dates (the id is what to type next, so it is never wrapped
 * unless the terminal is narrower than the id), then one line per payer with its own scopes,
 * wrapped under it. Titles are in --json and csv.
 */
function renderPolicyLines(
  p: CodePolicyRow,
  io: ViewIo,
  today: string,
  day: string | null,
): string {
  const id = stripControls(p.policy_id);
  const dates = describeStatusDates(p, today);
  const when = `${styleStatus(io, p.status)}  ${io.chalk.dim(dates)}`;
  const whenWidth = `${p.status}  ${dates}`.length;
  // The status goes below the id when both do not fit on one line.
  const together = 2 + id.length + 2 + whenWidth <= io.columns;
  const lines = p.payer_scopes.length
    ? p.payer_scopes.map((s) => `${stripControls(s.payer_name)}: ${stripControls(s.scope)}`)
    : // A version in effect whose links are not (one that starts later): said, not a bare dash.
      [day ? `no payer's scope in effect on ${day}` : "no payer's scope"];
  const detail = lines
    .flatMap((l) => wrapText(l, Math.max(20, io.columns - 4), 2).split("\n"))
    .map((l) => `    ${l}`);
  return [
    `  ${id}${together ? `  ${when}` : ""}`,
    ...(together ? [] : [`    ${when}`]),
    ...detail,
  ].join("\n");
}

/** `coverage code`: the heading, then the policies of each relationship. */
export function renderCodeReport(r: CodeReport, io: ViewIo, today: string): string {
  const out = [renderCodeHeading(r, io), ""];
  let any = false;
  for (const g of r.groups) {
    if (g.policies.length === 0) continue;
    any = true;
    out.push(io.chalk.bold(`${TITLES[g.relationship]} (${g.policies.length})`));
    out.push(...g.policies.map((p) => renderPolicyLines(p, io, today, r.effective_on)), "");
  }
  // Piped, stderr says it (writeView): once, not in the data as well (finding N11).
  if (!any && io.stdoutIsTTY !== false) out.push(io.chalk.dim("No policy lists this code."), "");
  return out.join("\n").trimEnd();
}
