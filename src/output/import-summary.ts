import type { McdImportReport } from "../import/mcd/import.js";

const n = (value: number) => value.toLocaleString("en-US");

/** The summary of an MCD import, for stderr: what was written, left out and skipped. */
export function formatImportSummary(report: McdImportReport, output: string): string[] {
  const { documents: d, written: w } = report;
  const lines = [
    `imported ${n(d.lcd)} LCDs, ${n(d.article)} articles, ${n(d.ncd)} NCDs (${n(w.policies)} policy versions) into ${output}`,
    `links: ${n(w.applicabilityLinks)} applicability (${n(w.lobs)} LOBs), ${n(w.codeLinks)} code links`,
    `code catalogue: ${n(w.codes)} descriptions${
      report.codes.size
        ? ` (${[...report.codes]
            .filter(([, count]) => count > 0)
            .map(
              ([source, count]) =>
                `${n(count)} from ${source === "export" ? "the export (ICD-10-CM, HCPCS Level II)" : source}`,
            )
            .join(", ")})`
        : ""
    }; CPT descriptions are never imported`,
    `as of ${report.asOf ?? "unknown (no last_updated date)"}`,
    `not covered by their group's paragraph: ${n(report.excluded.named)} HCPCS/CPT links named in a not-covered sentence, ${n(report.excluded.group)} in a group declared not covered (the category keeps the paragraph)`,
  ];
  if (report.retiredNcds)
    lines.push(
      `${n(report.retiredNcds)} NCD rows terminated before they took effect kept as retired versions (in effect on no day)`,
    );
  if (report.retiredNcdsByTitle)
    lines.push(
      `${n(report.retiredNcdsByTitle)} NCD rows retired by their title alone (no termination date) kept as retired versions (in effect on no day)`,
    );
  if (report.leftOut.size) {
    lines.push("left out by the import rules:");
    // The reason first and the count after it: "proposed LCDs: 1" reads right at any count.
    for (const [reason, count] of report.leftOut) lines.push(`  ${reason}: ${n(count)}`);
  }
  const s = report.skipped;
  if (s.count) {
    lines.push(`skipped ${n(s.count)} malformed rows (--strict makes them an error):`);
    for (const [reason, count] of s.byReason) lines.push(`  ${n(count)} × ${reason}`);
    lines.push("  first ones:", ...s.examples.map((e) => `    ${e}`));
  }
  if (report.missing.length) lines.push(`not in the export: ${report.missing.join(", ")}`);
  return lines;
}
