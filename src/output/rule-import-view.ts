import type { ImportedFile } from "../import/medicare/run.js";
import type { Io } from "./terminal.js";

/** The summary of `data import edits|fees|pa` on stderr: each file with its release and counts. */
export function printRuleImport(done: ImportedFile[], into: string, io: Io): void {
  const lines = done.map((f) => {
    const what = [
      f.kind.toUpperCase(),
      f.setting,
      f.program === "medicaid" ? "Medicaid" : "",
      f.release,
      f.part ? `f${f.part}` : "",
    ]
      .filter(Boolean)
      .join(" ");
    const extra = [
      f.odd_rows
        ? `${f.odd_rows.toLocaleString("en-US")} with a deletion date before the effective date, kept as CMS wrote them`
        : "",
      f.skipped
        ? `${f.skipped.toLocaleString("en-US")} ${f.skipped === 1 ? "line that is not a row" : "lines that are not rows"} skipped`
        : "",
    ].filter(Boolean);
    return `  ${what}: ${f.rows.toLocaleString("en-US")} rows${extra.length ? ` (${extra.join("; ")})` : ""}  ${f.file}`;
  });
  io.stderr.write(`Imported into ${into}:\n${lines.join("\n")}\n`);
}
