import { InterruptedError, UsageError } from "../../errors.js";
import type { NcciProgram, RuleRelease } from "../../domain/medicare-edits.js";
import { openRuleWriter } from "../../snapshot/medicare-writer.js";
import { findRuleInputs, type RuleInput } from "./inputs.js";
import { IMPORT_KINDS, identifyLayout, type ImportGroup, type Layout } from "./layouts.js";
import {
  formatOf,
  headRecords,
  MAX_RECORD_CHARS,
  readHead,
  readRecords,
  RecordTooLongError,
  type RecordFormat,
} from "./records.js";
import { readSheetRecords } from "./sheet.js";
import { toDmeposRows, toRuleRow } from "./rows.js";

/** What one file brought: its release, rows, odd rows (deleted before effective), skipped. */
export interface ImportedFile extends RuleRelease {
  skipped: number;
}

export interface RuleImportOptions {
  program?: NcciProgram;
  now: Date;
  signal?: AbortSignal;
  /** Called now and then with the rows read so far (a TTY's progress line). */
  onProgress?: (label: string, rows: number) => void;
}

interface Planned {
  input: RuleInput;
  layout: Layout;
  format: RecordFormat;
  /** A workbook's records, read whole (it is small); a text file's are streamed. */
  sheet?: string[][];
}

/** A file's first records (to tell its layout), and a workbook's every record. */
async function readStart(
  input: RuleInput,
): Promise<{ records: string[][]; format: RecordFormat; sheet?: string[][] }> {
  if (input.sheet) {
    const sheet = await readSheetRecords(await input.open(), input.label);
    return { records: sheet.slice(0, 40), format: "csv", sheet };
  }
  const head = await readHead(await input.open());
  const format = formatOf(head);
  return { records: headRecords(head, format), format };
}

/**
 * `data import edits|fees|pa PATH... --into SNAPSHOT`: every file is told by its layout first
 * (a file of another kind is refused before anything is written), then each is streamed into
 * the snapshot in one transaction: all of them, or nothing.
 */
export async function importRules(
  group: ImportGroup,
  paths: string[],
  into: string,
  options: RuleImportOptions,
): Promise<ImportedFile[]> {
  const inputs = await findRuleInputs(paths);
  try {
    const planned: Planned[] = [];
    // A zip's other files (CMS's rvu zips hold ANES, LOCCO, OPPSCAP tables and a fixed-width
    // copy) are passed over; a zip with no file of the kind is refused like a file given.
    const refused = new Map<string, unknown>();
    for (const input of inputs.files) {
      try {
        const { records, format, sheet } = await readStart(input);
        const layout = identifyLayout(
          records,
          input.label,
          input.names,
          IMPORT_KINDS[group],
          options.program,
        );
        planned.push({ input, layout, format, ...(sheet && { sheet }) });
      } catch (err) {
        if (input.zip === undefined) throw err;
        if (!refused.has(input.zip)) refused.set(input.zip, err);
      }
    }
    for (const [zip, err] of refused) if (!planned.some((p) => p.input.zip === zip)) throw err;
    numberParts(planned);
    const writer = await openRuleWriter(into, options.now);
    const done: ImportedFile[] = [];
    try {
      for (const p of planned) done.push(await importFile(p, writer, options));
      if (options.signal?.aborted) throw new InterruptedError("interrupted; nothing was imported");
      writer.commit();
    } catch (err) {
      writer.rollback();
      throw err;
    }
    return done;
  } finally {
    inputs.close();
  }
}

/**
 * PTP files whose names carry no part (`-f1`; Medicaid's zips) but share a table in one import
 * are numbered 1, 2, ... in the order given: each fills a slot of its own instead of replacing
 * the one before it.
 */
function numberParts(planned: Planned[]): void {
  const unnumbered = new Map<string, Layout[]>();
  for (const { layout } of planned) {
    if (layout.kind !== "ptp" || layout.part !== 0) continue;
    const key = `${layout.setting} ${layout.program} ${layout.release}`;
    unnumbered.set(key, [...(unnumbered.get(key) ?? []), layout]);
  }
  for (const layouts of unnumbered.values())
    if (layouts.length > 1) layouts.forEach((layout, i) => (layout.part = i + 1));
}

async function importFile(
  { input, layout, format, sheet }: Planned,
  writer: Awaited<ReturnType<typeof openRuleWriter>>,
  options: RuleImportOptions,
): Promise<ImportedFile> {
  const release = {
    kind: layout.kind,
    setting: layout.setting,
    program: layout.program,
    release: layout.release,
    part: layout.part,
    file: input.label,
    effective: layout.effective,
  };
  writer.begin(release);
  let index = 0;
  let rows = 0;
  let odd = 0;
  let skipped = 0;
  let started = false;
  const records = guardRecords(
    sheet ?? readRecords(await input.open(), format),
    input.label,
    () => index,
  );
  for await (const record of records) {
    if (index++ <= layout.header) continue;
    const parsed =
      layout.kind === "dmepos" ? toDmeposRows(record, layout) : toRuleRow(record, layout);
    if (parsed === null) {
      // Lines between the header and the first row (a wrapped header) and blank lines are
      // layout; anything else that is not a row is counted.
      if (started && record.some((c) => c.trim() !== "")) skipped++;
      continue;
    }
    started = true;
    for (const row of Array.isArray(parsed) ? parsed : [parsed]) {
      if ((row.kind === "ptp" || row.kind === "aoc") && row.del !== null && row.del < row.eff)
        odd++;
      writer.add(row);
    }
    rows++;
    if ((rows & 0xffff) === 0) {
      options.onProgress?.(input.label, rows);
      if (options.signal?.aborted) throw new InterruptedError("interrupted; nothing was imported");
    }
  }
  writer.end(rows, odd);
  return { ...release, rows, odd_rows: odd, skipped };
}

/** The records, with a record past the limit named by its file and line (exit 2). */
async function* guardRecords(
  records: Iterable<string[]> | AsyncIterable<string[]>,
  label: string,
  line: () => number,
): AsyncGenerator<string[]> {
  try {
    yield* records;
  } catch (err) {
    if (!(err instanceof RecordTooLongError)) throw err;
    throw new UsageError(
      `${label}: record ${line() + 1} is longer than ${MAX_RECORD_CHARS / (1 << 20)} MiB, the largest a rule file's record may be; nothing was imported`,
      "Check that the file is the CMS file it claims to be (a rule file's rows are under 1 KB).",
    );
  }
}
