import path from "node:path";
import type { CommandContext } from "../../cli/context.js";
import { JsonDatasetSink } from "../../dataset/json-sink.js";
import { addTextFolder } from "../../dataset/text-store.js";
import type { DatasetSink } from "../../dataset/sink.js";
import { UsageError } from "../../errors.js";
import { checkOutputPath } from "../../files/temp-output.js";
import { formatImportSummary } from "../../output/import-summary.js";
import { importMcd, type McdImportOptions, type McdImportReport } from "./import.js";

export interface ImportFlags {
  output: string;
  icd10cm?: string;
  hcpcs?: string;
  strict?: boolean;
  force?: boolean;
  maxLinks?: number;
  /** Where the data came from, for the snapshot's meta (default: the inputs' paths). */
  source?: string;
  /** Wraps the output's sink (the pull keeps the previous snapshot's history through it). */
  wrapSink?: (sink: DatasetSink) => DatasetSink;
  /** More tables to read, by file name, each row to its reader (importMcd's `alsoRead`). */
  alsoRead?: McdImportOptions["alsoRead"];
}

/**
 * The sink for an output path, by its extension: `.json` a dataset file, `.db` a snapshot.
 * Throws before any work when the path exists and `force` is not given.
 */
export async function openOutputSink(
  output: string,
  force: boolean,
  signal?: AbortSignal,
): Promise<DatasetSink> {
  const ext = path.extname(output).toLowerCase();
  const snapshot = ext === ".db" || ext === ".sqlite" || ext === ".sqlite3";
  if (!snapshot && ext !== ".json")
    throw new UsageError(
      `-o ${output}: the output must end in .json (a dataset file) or .db (a snapshot)`,
      "Choose a path such as medicare.json.",
    );
  checkOutputPath(output, force);
  if (!snapshot) return new JsonDatasetSink(output, force);
  // node:sqlite loads only here, for a snapshot (Node 22.13+; a clear exit 2 before that).
  const { openSnapshotWriter } = await import("../../snapshot/writer.js");
  return addTextFolder(await openSnapshotWriter(output, { force, signal }), output);
}

/** `coverage data import mcd` (and `data pull`): imports, then prints the summary on stderr. */
export async function runMcdImport(
  inputs: string[],
  flags: ImportFlags,
  ctx: CommandContext,
): Promise<McdImportReport> {
  const opened = await openOutputSink(flags.output, Boolean(flags.force), ctx.signal);
  const sink = flags.wrapSink ? flags.wrapSink(opened) : opened;
  let report: McdImportReport;
  try {
    report = await importMcd(inputs, sink, {
      icd10cm: flags.icd10cm,
      hcpcs: flags.hcpcs,
      strict: flags.strict,
      maxLinks: flags.maxLinks,
      source: flags.source,
      alsoRead: flags.alsoRead,
      signal: ctx.signal,
      progress: (message) => ctx.notice(`${message}…`),
    });
  } catch (err) {
    // An input that fails before the import starts (a missing path, a truncated zip) too.
    await sink.abort();
    throw err;
  }
  // A code file of the wrong kind (the two swapped, say) would give no descriptions silently.
  for (const { flag, file } of report.unrecognised)
    ctx.warn(
      `${flag} ${file}: no ${flag === "--icd10cm" ? "ICD-10-CM order-file" : "HCPCS Level II (ANWEB)"} lines recognised, so no descriptions came from it (is it the ${flag === "--icd10cm" ? "HCPCS" : "ICD-10-CM"} file?)`,
    );
  if (!ctx.settings.quiet)
    ctx.io.stderr.write(`${formatImportSummary(report, flags.output).join("\n")}\n`);
  return report;
}
