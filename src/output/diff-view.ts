import type { CodeEntry, PolicyDiff, ScopeEntry } from "../views/policy-diff.js";
import type { VersionsReport } from "../views/versions.js";
import { describeRetirement } from "../domain/retirement.js";
import { describeStep } from "../views/versions.js";
import { styleStatus } from "./policies.js";
import { renderTable, wrapText, type Column } from "./table.js";
import { stripControls, type Io } from "./terminal.js";

type ViewIo = Pick<Io, "columns" | "chalk">;

const REL_WORD: Record<string, string> = {
  COVERS: "covers",
  DOES_NOT_COVER: "does not cover",
  REFERENCES: "mentions",
};

const rels = (r: readonly string[]) => r.map((x) => REL_WORD[x] ?? x).join(" + ");

function codeLine(sign: string, c: CodeEntry): string {
  const category = c.categories.filter((x) => x !== null).join(", ");
  return `${sign} ${c.code_system} ${stripControls(c.code)}  ${rels(c.relationships)}${category ? ` (${stripControls(category)})` : ""}`;
}

/** Scopes grouped by payer and LOB: `Medicare (CMS) medicare_part_b: NV HI`. */
export function describeScopes(scopes: readonly ScopeEntry[]): string[] {
  const groups = new Map<string, string[]>();
  for (const s of scopes) {
    const key = `${s.payer_name} ${s.lob}`;
    const list = groups.get(key) ?? [];
    list.push(s.state ?? "nationwide");
    groups.set(key, list);
  }
  return [...groups].map(([k, states]) => `${stripControls(k)}: ${states.join(" ")}`);
}

function fieldValue(v: unknown): string {
  return v === null || v === undefined ? "(none)" : stripControls(String(v));
}

/** Colours a unified diff's lines: additions green, removals red, hunk headers cyan. */
export function colorPatch(patch: string, io: Pick<Io, "chalk">): string {
  return patch
    .split("\n")
    .map((l) =>
      l.startsWith("+++") || l.startsWith("---")
        ? io.chalk.bold(l)
        : l.startsWith("+")
          ? io.chalk.green(l)
          : l.startsWith("-")
            ? io.chalk.red(l)
            : l.startsWith("@@")
              ? io.chalk.cyan(l)
              : l,
    )
    .join("\n");
}

/** `coverage diff`: fields, codes, applicability, then the criteria as a unified diff. */
export function renderDiff(d: PolicyDiff, io: ViewIo): string {
  const out: string[] = [
    io.chalk.bold(`${stripControls(d.old_id)} → ${stripControls(d.new_id)}`),
    io.chalk.dim(`Changes: ${d.kinds.join(", ")}`),
    ...(d.cms_revision?.new
      ? [
          wrapText(
            `CMS's reason (version ${d.cms_revision.new.version}${d.cms_revision.new.revision_date ? `, revised ${d.cms_revision.new.revision_date}` : ""}): ${stripControls(d.cms_revision.new.reason ?? d.cms_revision.new.explanation ?? "none given")}`,
            io.columns,
          ),
        ]
      : []),
    "",
  ];
  const section = (title: string, lines: string[]) => {
    out.push(io.chalk.bold(title));
    out.push(...(lines.length ? lines : [io.chalk.dim("  no change")]), "");
  };
  // Each field as its old value (-) over its new one (+), wrapped under its name.
  const indent = (sign: string, text: string) =>
    wrapText(text, Math.max(20, io.columns - 4))
      .split("\n")
      .map((l, k) => `  ${k === 0 ? sign : " "} ${l}`)
      .join("\n");
  section(
    "Fields",
    d.fields.flatMap((f) => [
      `  ${f.field}`,
      io.chalk.red(indent("-", fieldValue(f.old))),
      io.chalk.green(indent("+", fieldValue(f.new))),
    ]),
  );
  section("Codes", [
    ...d.codes.added.map((c) => io.chalk.green(codeLine("+", c))),
    ...d.codes.removed.map((c) => io.chalk.red(codeLine("-", c))),
    ...d.codes.changed.map((c) =>
      io.chalk.yellow(
        `~ ${c.code_system} ${stripControls(c.code)}  ${rels(c.old.relationships)} → ${rels(c.new.relationships)}`,
      ),
    ),
  ]);
  section("Applicability", [
    ...describeScopes(d.applicability.gained).map((l) => io.chalk.green(`+ ${l}`)),
    ...describeScopes(d.applicability.lost).map((l) => io.chalk.red(`- ${l}`)),
  ]);
  out.push(io.chalk.bold("Criteria"));
  out.push(
    d.criteria.patch
      ? colorPatch(stripControls(d.criteria.patch).trimEnd(), io)
      : io.chalk.dim("  no change"),
  );
  return out.join("\n");
}

/** `coverage versions`: one row per version with its dates, state and step from the last. */
export function renderVersions(r: VersionsReport, io: ViewIo): string {
  type Row = VersionsReport["versions"][number];
  const columns: Column<Row>[] = [
    { header: "POLICY ID", value: (v) => v.policy_id, nowrap: true },
    { header: "FROM", value: (v) => v.effective_from_date },
    { header: "TO", value: (v) => v.effective_to_date ?? "-" },
    {
      header: "STATUS",
      value: (v) => v.status,
      style: (t) => styleStatus(io, t),
    },
    { header: "CHANGES", value: (v) => describeStep(v.changes), flex: true, min: 20 },
  ];
  // CMS's own record of each version, where a pulled snapshot has it.
  if (r.versions.some((v) => v.cms_revision))
    columns.push({
      header: "CMS REVISION",
      value: (v) =>
        v.cms_revision
          ? stripControls(
              [v.cms_revision.revision_date, v.cms_revision.reason ?? v.cms_revision.explanation]
                .filter(Boolean)
                .join(" "),
            )
          : "-",
      flex: true,
      min: 20,
    });
  const title = r.versions[r.versions.length - 1]?.title ?? "";
  const key = stripControls(r.key);
  return [
    // The title wraps at spaces; the key, first, is never broken.
    wrapText(`${key}: ${stripControls(title)}`, io.columns).replace(key, io.chalk.bold(key)),
    io.chalk.dim(
      `${r.versions.length} version${r.versions.length === 1 ? "" : "s"}; see one step with \`coverage diff OLD_ID NEW_ID\``,
    ),
    ...r.versions
      .filter((v) => v.cms_retires_on)
      .map((v) => `${stripControls(v.policy_id)} ${describeRetirement(v.cms_retires_on!)}`),
    "",
    renderTable(columns, r.versions, io),
  ].join("\n");
}
