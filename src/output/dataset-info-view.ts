import type { DatasetInfo } from "../snapshot/info.js";
import type { RuleTableInfo } from "../snapshot/rule-info.js";
import { formatBytes } from "./bytes.js";
import { stripControls } from "./terminal.js";

const LABELS: Array<[keyof DatasetInfo, string]> = [
  ["file", "file"],
  ["format", "format"],
  ["format_version", "format version"],
  ["as_of", "as of"],
  ["source", "source"],
  ["payers", "payers"],
  ["lobs", "LOBs"],
  ["policies", "policies"],
  ["versions", "versions"],
  ["applicability_links", "applicability links"],
  ["code_links", "code links"],
  ["codes", "codes (distinct)"],
  ["catalogue", "catalogue entries"],
  ["size_bytes", "size"],
];

/** `data info` for people: one aligned `label  value` line per figure, then the rule files. */
export function renderDatasetInfo(info: DatasetInfo): string {
  const width = Math.max(...LABELS.map(([, label]) => label.length));
  const figures = LABELS.map(([key, label]) => {
    const value = info[key];
    const text =
      key === "size_bytes"
        ? formatBytes(value as number)
        : typeof value === "number"
          ? value.toLocaleString("en-US")
          : (value ?? "-");
    return `${label.padEnd(width)}  ${stripControls(String(text))}`;
  });
  return [...figures, ...renderRuleTables(info.rules)].join("\n");
}

/** The Medicare rule files of a snapshot: what, release, part, dates, rows, and the file. */
function renderRuleTables(rules: RuleTableInfo[] | undefined): string[] {
  if (rules === undefined) return [];
  if (!rules.length) return ["Medicare rules  none"];
  const what = (r: RuleTableInfo) =>
    [
      r.kind.toUpperCase(),
      r.setting,
      r.program === "medicaid" && ["ptp", "mue", "aoc"].includes(r.kind) ? "Medicaid" : "",
      r.release,
      r.part ? `f${r.part}` : "",
    ]
      .filter(Boolean)
      .join(" ");
  const width = Math.max(...rules.map((r) => what(r).length));
  return [
    "Medicare rules:",
    ...rules.map((r) => {
      const notes = [
        `${r.rows.toLocaleString("en-US")} rows`,
        r.effective ? `effective ${r.effective}` : "",
        r.odd_rows ? `${r.odd_rows.toLocaleString("en-US")} deleted before effective` : "",
        r.programs
          ? Object.entries(r.programs)
              .map(([p, n]) => `${p} ${n.toLocaleString("en-US")}`)
              .join(", ")
          : "",
        r.sources ? `${r.sources.length} sources` : "",
      ].filter(Boolean);
      return stripControls(`  ${what(r).padEnd(width)}  ${notes.join("; ")}  ${r.file}`);
    }),
  ];
}
