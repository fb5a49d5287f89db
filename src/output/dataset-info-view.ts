import type { DatasetInfo } from "../snapshot/info.js";
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

/** `data info` for people: one aligned `label  value` line per figure. */
export function renderDatasetInfo(info: DatasetInfo): string {
  const width = Math.max(...LABELS.map(([, label]) => label.length));
  return LABELS.map(([key, label]) => {
    const value = info[key];
    const text =
      key === "size_bytes"
        ? formatBytes(value as number)
        : typeof value === "number"
          ? value.toLocaleString("en-US")
          : (value ?? "-");
    return `${label.padEnd(width)}  ${stripControls(String(text))}`;
  }).join("\n");
}
