import type {
  CodeGroup,
  DetailApplicability,
  PolicyDetail,
  Relationship,
} from "../contract/index.js";
import { versionState, type VersionState } from "../engine/time.js";
import { renderMarkdown } from "./markdown.js";
import { styleState } from "./policies.js";
import { renderTable, type Column } from "./table.js";
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

function fields(detail: PolicyDetail, state: VersionState, io: ViewIo): string {
  const rows: Array<[string, string]> = [
    ["Policy ID", stripControls(detail.policy_id)],
    ["Number", stripControls(detail.policy_number)],
    ["Status", styleState(io, state)],
    ["Effective", describePeriod(detail.effective_from_date, detail.effective_to_date)],
    ["File type", stripControls(detail.file_type)],
    ["Source", stripControls(detail.file_url)],
    ["Listing", stripControls(detail.listing_url)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  return rows.map(([k, v]) => io.chalk.dim(k.padEnd(width)) + v).join("\n");
}

function applicabilityTable(items: DetailApplicability[], io: ViewIo): string {
  if (items.length === 0) return io.chalk.dim("No applicability recorded.");
  const columns: Column<DetailApplicability>[] = [
    { header: "STATE", value: (a) => a.state ?? "nationwide" },
    { header: "PAYERS", value: (a) => a.payer_names.join(", "), flex: true, min: 16 },
    { header: "LINES OF BUSINESS", value: (a) => a.lobs.join(", "), flex: true, min: 16 },
  ];
  return renderTable(columns, items, io);
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
): Promise<string> {
  const state = versionState(detail, today);
  const criteria =
    detail.criteria_text === null || detail.criteria_text.trim() === ""
      ? io.chalk.dim("Not extracted for this policy yet.")
      : await renderMarkdown(detail.criteria_text, io);
  return [
    io.chalk.bold(stripControls(detail.title)),
    "",
    fields(detail, state, io),
    "",
    io.chalk.bold("Applicability"),
    applicabilityTable(detail.applicability, io),
    "",
    ...codeSections(detail.code_groups, io),
    io.chalk.bold("Criteria"),
    criteria,
  ].join("\n");
}
