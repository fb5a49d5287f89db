import type {
  DetailApplicability,
  Envelope,
  Lob,
  Payer,
  Policy,
  PolicyDetail,
  PolicyUpdate,
} from "../contract/index.js";
import { readPolicyColumn, type SearchShape } from "../output/search-view.js";
import type { CodeReport } from "../views/code-view.js";
import { describeApplicability } from "../views/coverage-summary.js";
import type { Matrix } from "../views/matrix.js";
import type { PolicyDiff } from "../views/policy-diff.js";
import type { VersionsReport } from "../views/versions.js";
import { describeRetirement } from "../domain/retirement.js";

/** What a rendering may need beside the answer: the day statuses are read on, the search's shape. */
export interface RenderContext {
  today: string;
  shape?: SearchShape;
}

const pageLine = (what: string, page: Envelope<unknown>) =>
  page.data.length === 0
    ? `No ${what} match.`
    : `${what[0]!.toUpperCase()}${what.slice(1)} ${page.offset + 1}-${page.offset + page.data.length}` +
      (page.has_more ? ` (more: offset ${page.offset + page.data.length}).` : " (no more).");

const dates = (from: string, to: string | null) => `${from} to ${to ?? "no end date"}`;

function scopeLine(a: DetailApplicability): string {
  return describeApplicability({ ...a, state: a.state ?? null });
}

function renderSearch(page: Envelope<Policy>, c: RenderContext): string[] {
  const shape = c.shape ?? { refs: [], words: false, applicability: true, codeGroups: false };
  return [
    pageLine("policies", page),
    ...page.data.map((p) => {
      const col = (name: string) => readPolicyColumn(p, name, shape, c.today);
      const verdict = shape.refs.length ? `; verdict: ${String(col("verdict"))}` : "";
      const payers = (col("payer_names") as string[]).join(", ") || "none";
      return `- ${p.policy_id} "${p.title}" [${String(col("status"))}, ${dates(p.effective_from_date, p.effective_to_date)}]; payers: ${payers}; scope: ${String(col("scope")) || "none"}${verdict}`;
    }),
  ];
}

function renderPolicy(p: PolicyDetail): string[] {
  const lines = [
    `${p.policy_id}: "${p.title}" (number ${p.policy_number}), in effect ${dates(p.effective_from_date, p.effective_to_date)}.`,
  ];
  // Summaries hold HTML from the payers' pages: tags cost an assistant words, not meaning.
  if (p.summary) lines.push(`Summary: ${p.summary.replace(/<[^>]*>/g, "")}`);
  lines.push("Applicability:", ...p.applicability.map((a) => `- ${scopeLine(a)}`));
  lines.push(
    p.code_groups.length ? "Code groups:" : "Code groups: none.",
    ...p.code_groups.map(
      (g) =>
        `- ${g.relationship} ${g.code_system}${g.category ? ` (${g.category})` : ""}: ${g.codes.length > 30 ? `${g.codes.slice(0, 30).join(", ")} and ${g.codes.length - 30} more` : g.codes.join(", ")}`,
    ),
  );
  lines.push(p.criteria_text === null ? "No criteria text." : `Criteria:\n${p.criteria_text}`);
  return lines;
}

function renderCode(r: CodeReport): string[] {
  return [
    `${r.code_system}:${r.code}${r.description ? ` "${r.description}"` : ""} on ${r.effective_on ?? "today"}:`,
    ...(r.groups.every((g) => g.policies.length === 0) ? ["No policy lists this code."] : []),
    ...r.groups
      .filter((g) => g.policies.length)
      .flatMap((g) => [
        `${g.relationship} (${g.policies.length}):`,
        ...g.policies.map((p) => {
          const categories = p.categories.filter(Boolean);
          // Each payer with its own scopes (a list of payers beside a list of scopes misleads).
          const scopes = p.payer_scopes.map((s) => `${s.payer_name}: ${s.scope}`).join("; ");
          return `- ${p.policy_id} "${p.title}" [${p.status}]: ${scopes || "-"}${categories.length ? ` (${categories.join("; ")})` : ""}`;
        }),
      ]),
  ];
}

function renderMatrix(m: Matrix): string[] {
  const rows = new Map<string, string[]>();
  for (const cell of m.cells) {
    if (cell.verdict === "none") continue;
    const key = `${cell.payer_name} (${cell.payer_id}) ${cell.lob}`;
    const list = rows.get(key) ?? [];
    list.push(`${cell.state ?? "nationwide"}: ${cell.verdict} (${cell.policy_ids.join(", ")})`);
    rows.set(key, list);
  }
  return [
    `${m.code_system}:${m.code}${m.description ? ` "${m.description}"` : ""} on ${m.effective_on ?? "today"}, ${m.rows.length} payer x LOB rows, ${m.states.length} columns (cells with no policy left out):`,
    ...[...rows].map(([row, cells]) => `- ${row}: ${cells.join("; ")}`),
  ];
}

function renderVersions(r: VersionsReport): string[] {
  return [
    `${r.versions.length} versions of ${r.key}:`,
    ...r.versions.map(
      (v) =>
        `- ${v.policy_id} [${v.status}, ${dates(v.effective_from_date, v.effective_to_date)}]` +
        (v.changes
          ? `: ${v.changes.kinds.join(", ")} (codes +${v.changes.codes_added} -${v.changes.codes_removed} ~${v.changes.codes_changed}, scopes +${v.changes.scopes_gained} -${v.changes.scopes_lost})`
          : ": first version") +
        (v.cms_revision
          ? `; CMS: ${[v.cms_revision.revision_date, v.cms_revision.reason ?? v.cms_revision.explanation].filter(Boolean).join(" ")}`
          : "") +
        (v.cms_retires_on ? `; ${describeRetirement(v.cms_retires_on)}` : ""),
    ),
  ];
}

function renderDiff(d: PolicyDiff): string[] {
  const code = (c: { code_system: string; code: string }) => `${c.code_system}:${c.code}`;
  const list = (items: string[]) => items.join(", ") || "none";
  const scope = (s: { payer_name: string; lob: string; state: string | null }) =>
    `${s.payer_name}: ${s.lob} · ${s.state ?? "nationwide"}`;
  return [
    `${d.old_id} -> ${d.new_id}: ${d.kinds.join(", ") || "no change"}.`,
    ...d.fields.map((f) => `- ${f.field}: ${JSON.stringify(f.old)} -> ${JSON.stringify(f.new)}`),
    `Codes added (${d.codes.added.length}): ${list(d.codes.added.map(code))}`,
    `Codes removed (${d.codes.removed.length}): ${list(d.codes.removed.map(code))}`,
    `Codes changed (${d.codes.changed.length}): ${list(d.codes.changed.map((c) => `${code(c)} ${c.old.relationships.join("/")} -> ${c.new.relationships.join("/")}`))}`,
    `Scopes gained: ${d.applicability.gained.map(scope).join("; ") || "none"}`,
    `Scopes lost: ${d.applicability.lost.map(scope).join("; ") || "none"}`,
    d.criteria.patch ? `Criteria diff:\n${d.criteria.patch}` : "Criteria unchanged.",
  ];
}

function renderUpdates(page: Envelope<PolicyUpdate & { changes?: unknown }>): string[] {
  return [
    pageLine("updates", page),
    ...page.data.map(
      (u) =>
        `- ${u.effective_from_date} ${u.payer_display_name} (${u.payer_id}): ${u.policy_id} "${u.title}" ${u.change_type}` +
        (Array.isArray(u.changes) ? ` (${u.changes.join(", ")})` : ""),
    ),
  ];
}

interface ClaimLine {
  input: { procedure: string; diagnoses: string[]; state?: string | null; date?: string };
  results: Array<{
    payer_id?: string | null;
    lob?: string | null;
    verdict: string;
    policies: Array<{ policy_id: string; verdict: string; category?: string | null }>;
  }>;
}

function renderCheck(answer: { lines: ClaimLine[] }): string[] {
  return answer.lines.flatMap(({ input, results }) => [
    `${input.procedure} with ${input.diagnoses.join(", ") || "no diagnosis"}${input.state ? ` in ${input.state}` : ""}${input.date ? ` on ${input.date}` : ""}:`,
    ...results.map(
      (r) =>
        `- ${r.payer_id ?? "any payer"} ${r.lob ?? ""}: ${r.verdict}` +
        (r.policies.length
          ? ` (${r.policies.map((p) => `${p.policy_id} ${p.verdict}${p.category ? ` [${p.category}]` : ""}`).join("; ")})`
          : ""),
    ),
  ]);
}

/** The text lines of a tool's answer (its header and bounds are added by the caller). */
export function renderAnswer(tool: string, data: unknown, c: RenderContext): string[] {
  switch (tool) {
    case "search_policies":
      return renderSearch(data as Envelope<Policy>, c);
    case "get_policy":
      return renderPolicy(data as PolicyDetail);
    case "lookup_code":
      return renderCode(data as CodeReport);
    case "coverage_matrix":
      return renderMatrix(data as Matrix);
    case "policy_versions":
      return renderVersions(data as VersionsReport);
    case "diff_policy_versions":
      return renderDiff(data as PolicyDiff);
    case "recent_updates":
      return renderUpdates(data as Envelope<PolicyUpdate>);
    case "check_claim":
      return renderCheck(data as { lines: ClaimLine[] });
    case "list_payers": {
      const page = data as Envelope<Payer>;
      return [
        pageLine("payers", page),
        ...page.data.map((p) => `- ${p.payer_id}: ${p.display_name}`),
      ];
    }
    case "list_lobs": {
      const page = data as Envelope<Lob>;
      return [
        pageLine("lines of business", page),
        ...page.data.map(
          (l) => `- ${l.lob_id}: ${l.payer_name} ${l.lob} · ${l.state ?? "nationwide"}`,
        ),
      ];
    }
    default:
      return [JSON.stringify(data)];
  }
}
