import type {
  CodeGroup,
  DetailApplicability,
  PolicyDetail,
  Relationship,
} from "../contract/index.js";
import { describeRetirement } from "../domain/retirement.js";
import { pairScopes } from "../domain/scopes.js";
import { describeStatusDates, versionStatus, type VersionStatus } from "../domain/status.js";
import { renderMarkdown } from "./markdown.js";
import { styleStatus } from "./policies.js";
import { markupToText } from "../domain/plain-text.js";
import { renderTable, wrapText, type Column } from "./table.js";
import { stripControls, type Io } from "./terminal.js";

type ViewIo = Pick<Io, "columns" | "chalk" | "stdoutIsTTY">;

const RELATIONSHIP_TITLES: Record<Relationship, string> = {
  COVERS: "Covers",
  DOES_NOT_COVER: "Does not cover",
  REFERENCES: "References (no coverage decision)",
};

/** `from D` or `from D until E` (the end date is exclusive: the first day no longer in effect). */
export function describePeriod(from: string, to: string | null): string {
  return to ? `${from} until ${to}` : `from ${from}`;
}

function fields(
  detail: PolicyDetail,
  status: VersionStatus,
  today: string,
  io: ViewIo,
  retiresOn: string | null,
  missingFile: string | undefined,
): string {
  const rows: Array<[string, string]> = [
    ["Policy ID", stripControls(detail.policy_id)],
    ["Number", stripControls(detail.policy_number)],
    ["Status", `${styleStatus(io, status)} ${io.chalk.dim(describeStatusDates(detail, today))}`],
    ...(retiresOn ? [["Retirement", describeRetirement(retiresOn)] as [string, string]] : []),
    ["Effective", describePeriod(detail.effective_from_date, detail.effective_to_date)],
    ["File type", stripControls(missingFile ?? detail.file_type)],
    ["Source", stripControls(detail.file_url)],
    ["Listing", stripControls(detail.listing_url)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  return rows.map(([k, v]) => io.chalk.dim(k.padEnd(width)) + v).join("\n");
}

/** Each payer with its own scopes (cli.md Output: a scope is shown with its payer). */
function applicabilityTable(items: DetailApplicability[], io: ViewIo): string {
  if (items.length === 0) return io.chalk.dim("No applicability recorded.");
  type Row = ReturnType<typeof pairScopes>[number];
  const columns: Column<Row>[] = [
    { header: "PAYER", value: (p) => p.payer_name, flex: true, min: 16 },
    {
      header: "SCOPE",
      value: (p) => p.scope.split("; ").join("\n"),
      flex: true,
      min: 20,
      hang: 2,
    },
  ];
  return renderTable(columns, pairScopes(items), io);
}

interface CodeRow {
  system: string;
  category: string;
  code: string;
  description: string;
}

function codeRows(groups: CodeGroup[]): CodeRow[] {
  return groups.flatMap((g) =>
    g.codes.map((code, i) => ({
      system: g.code_system,
      category: g.category ?? "-",
      code,
      description: g.descriptions?.[i] ?? "",
    })),
  );
}

function codeSections(groups: CodeGroup[], io: ViewIo): string[] {
  if (groups.length === 0) return [io.chalk.bold("Codes"), io.chalk.dim("No codes recorded."), ""];
  const out: string[] = [];
  for (const rel of Object.keys(RELATIONSHIP_TITLES) as Relationship[]) {
    const rows = codeRows(groups.filter((g) => g.relationship === rel));
    if (rows.length === 0) continue;
    const columns: Column<CodeRow>[] = [
      { header: "SYSTEM", value: (r) => r.system },
      { header: "CATEGORY", value: (r) => r.category, flex: true, min: 12 },
      { header: "CODE", value: (r) => r.code },
    ];
    if (rows.some((r) => r.description))
      columns.push({ header: "DESCRIPTION", value: (r) => r.description, flex: true, min: 20 });
    out.push(
      io.chalk.bold(`Codes: ${RELATIONSHIP_TITLES[rel]}`),
      renderTable(columns, rows, io),
      "",
    );
  }
  return out;
}

/**
 * The readable view of one policy version: title, identifying fields, state and dates, where the
 * file comes from, applicability, code groups by relationship, and the criteria text.
 */
export async function renderPolicyView(
  detail: PolicyDetail,
  io: ViewIo,
  today: string,
  retiresOn: string | null = null,
  missingFile?: string,
): Promise<string> {
  const status = versionStatus(detail, today);
  const criteria =
    detail.criteria_text === null || detail.criteria_text.trim() === ""
      ? io.chalk.dim("Not extracted for this policy yet.")
      : await renderMarkdown(detail.criteria_text, io);
  const summary = detail.summary ? stripControls(markupToText(detail.summary)).trim() : "";
  return [
    io.chalk.bold(stripControls(detail.title)),
    "",
    fields(detail, status, today, io, retiresOn, missingFile),
    "",
    // The API's summary, as plain text (finding 28: the detail showed none).
    ...(summary ? [io.chalk.bold("Summary"), wrapText(summary, io.columns), ""] : []),
    io.chalk.bold("Applicability"),
    applicabilityTable(detail.applicability, io),
    "",
    ...codeSections(detail.code_groups, io),
    io.chalk.bold("Criteria"),
    criteria,
  ].join("\n");
}
