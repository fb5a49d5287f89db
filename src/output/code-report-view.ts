import type { Relationship } from "../contract/index.js";
import type { VersionState } from "../engine/time.js";
import type { CodePolicyRow, CodeReport } from "../views/code-view.js";
import { styleState } from "./policies.js";
import { renderTable, type Column } from "./table.js";
import { stripControls, type Io } from "./terminal.js";

type ViewIo = Pick<Io, "columns" | "chalk">;

const TITLES: Record<Relationship, string> = {
  COVERS: "Covers",
  DOES_NOT_COVER: "Does not cover",
  REFERENCES: "Mentions (no coverage decision)",
};

/** The heading of a code view: `CPT 97110: description` and the day it looks at. */
export function renderCodeHeading(
  r: Pick<CodeReport, "code_system" | "code" | "description" | "effective_on">,
  io: ViewIo,
): string {
  const description = r.description
    ? stripControls(r.description)
    : io.chalk.dim("no description known");
  const when = r.effective_on
    ? `Policies in effect on ${r.effective_on}`
    : "Every version, whatever its dates";
  return `${io.chalk.bold(`${r.code_system} ${stripControls(r.code)}`)}: ${description}\n${io.chalk.dim(when)}`;
}

/** `coverage code`: the heading, then one table per relationship. */
export function renderCodeReport(r: CodeReport, io: ViewIo): string {
  const out = [renderCodeHeading(r, io), ""];
  const columns: Column<CodePolicyRow>[] = [
    { header: "PAYER", value: (p) => p.payer_names.join(", ") || "-", flex: true, min: 16 },
    { header: "SCOPE", value: (p) => p.scope || "-", flex: true, min: 20 },
    // The id is what to type next (`coverage policy ID`): never wrapped; titles are in --json.
    { header: "POLICY ID", value: (p) => p.policy_id },
    {
      header: "STATUS",
      value: (p) => p.state,
      style: (text) => styleState(io, text as VersionState),
    },
    { header: "FROM", value: (p) => p.effective_from_date },
  ];
  let any = false;
  for (const g of r.groups) {
    if (g.policies.length === 0) continue;
    any = true;
    out.push(
      io.chalk.bold(`${TITLES[g.relationship]} (${g.policies.length})`),
      renderTable(columns, g.policies, io),
      "",
    );
  }
  if (!any) out.push(io.chalk.dim("No policy lists this code."), "");
  return out.join("\n").trimEnd();
}
