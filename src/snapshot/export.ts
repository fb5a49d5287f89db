import { closeSync, createWriteStream, openSync, readSync } from "node:fs";
import { once } from "node:events";
import type { SQLOutputValue } from "node:sqlite";
import { InterruptedError, UsageError } from "../errors.js";
import { checkInputFile } from "../files/input-file.js";
import { checkOutputPath, createTempOutput, type TempOutput } from "../files/temp-output.js";
import { GIVEN } from "./schema.js";
import { isSqliteFile } from "./sqlite.js";
import { openSnapshotDatabase } from "./store.js";

type Row = Record<string, SQLOutputValue>;

export interface ExportOptions {
  force?: boolean;
  /** The run's Ctrl-C: an export to stdout stops between versions (a file's is removed at once). */
  signal?: AbortSignal | undefined;
  /** Where `-o -` writes (default: process.stdout). */
  stdout?: NodeJS.WritableStream;
  /** Called now and then with the number of versions written. */
  onProgress?: (versions: number, total: number) => void;
}

// JSON.stringify(dataset, null, 2) written item by item: a dataset written that way (the
// bundled one is) comes back byte for byte, and memory stays at one version.
function indent(json: string, by: string): string {
  return json.replaceAll("\n", "\n" + by);
}

/** A snapshot version's row, its applicability rows and packed code links as a dataset policy. */
export function policyOf(v: Row, links: Row[], packed: string): Record<string, unknown> {
  const given = Number(v.given);
  const out: Record<string, unknown> = {
    policy_id: v.policy_id,
    policy_number: v.policy_number,
    title: v.title,
    effective_from_date: v.effective_from_date,
    effective_to_date: v.effective_to_date,
    file_url: v.file_url,
    file_type: v.file_type,
    listing_url: v.listing_url,
    summary: v.summary,
  };
  if (given & GIVEN.criteria) out.criteria_text = v.criteria_text;
  if (given & GIVEN.files) {
    const files: Record<string, unknown> = {};
    if (v.file_display !== null) files.display = v.file_display;
    if (v.file_text !== null) files.text = v.file_text;
    out.files = files;
  }
  out.applicability = links.map((a) => ({ lob_id: a.lob_id, from: a.from, to: a.to }));
  // The packed links, `[code_system, code, key, relationship, category?]`, as written.
  out.codes = (JSON.parse(packed) as Array<[string, string, string, string, (string | null)?]>).map(
    (l) =>
      l.length > 4
        ? { code_system: l[0], code: l[1], relationship: l[3], category: l[4] }
        : { code_system: l[0], code: l[1], relationship: l[3] },
  );
  return out;
}

/**
 * Writes a snapshot back as a JSON dataset: to a temporary name renamed when complete, or to
 * stdout for `-o -` (no temporary file: what went out cannot be taken back, as with a pipe).
 */
export async function exportSnapshot(
  snapshot: string,
  output: string,
  options: ExportOptions = {},
): Promise<{ versions: number }> {
  refuseJsonDataset(snapshot);
  const toStdout = output === "-";
  const target = toStdout ? undefined : checkOutputPath(output, options.force);
  const { db, meta } = await openSnapshotDatabase(snapshot, { older: true });
  let temp: TempOutput | undefined;
  let out: NodeJS.WritableStream;
  try {
    if (target) {
      temp = createTempOutput(target, {
        force: options.force,
        signal: options.signal,
        shown: output,
      });
      // Opened synchronously: an open still under way in the thread pool when a signal's handler
      // removes the temporary file would create it after the removal, and leave it behind.
      out = createWriteStream("", { fd: openSync(temp.path, "wx") });
    } else out = options.stdout ?? process.stdout;
  } catch (err) {
    db.close();
    temp?.discard();
    if (err instanceof InterruptedError) throw err;
    throw new UsageError(
      `cannot write ${output} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      "Check that the output folder exists and is writable.",
    );
  }
  const total = Number(meta.get("versions") ?? 0);
  let written = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  const list = async (key: string, rows: Iterable<Record<string, unknown>>, last = false) => {
    await write(`  ${JSON.stringify(key)}: [`);
    let first = true;
    for (const row of rows) {
      await write(`${first ? "" : ","}\n    ${indent(JSON.stringify(row, null, 2), "    ")}`);
      first = false;
    }
    await write(first ? `]${last ? "" : ","}\n` : `\n  ]${last ? "" : ","}\n`);
  };
  try {
    await write(`{\n  "format": "coverage-dataset",\n  "version": 1,\n`);
    if (Number(meta.get("as_of_given") ?? 1))
      await write(`  "as_of": ${JSON.stringify(meta.get("as_of") ?? null)},\n`);
    await list(
      "payers",
      db.prepare("SELECT payer_id, display_name FROM payer ORDER BY seq").iterate(),
    );
    await list(
      "lobs",
      db.prepare("SELECT lob_id, payer_id, lob, state FROM lob ORDER BY seq").iterate(),
    );
    if (Number(meta.get("codes_given") ?? 1))
      await list(
        "codes",
        db.prepare("SELECT code_system, code, description FROM code ORDER BY seq").iterate(),
      );
    const links = db.prepare(
      'SELECT lob_id, "from", "to" FROM applicability WHERE version = ? ORDER BY seq',
    );
    const codes = db.prepare("SELECT code_links FROM version_code_links WHERE version = ?");
    const versions = db.prepare("SELECT * FROM version ORDER BY seq").iterate();
    const policies = function* () {
      for (const v of versions) {
        if (options.signal?.aborted) throw new InterruptedError("export interrupted");
        yield policyOf(
          v,
          links.all(v.seq as number),
          codes.get(v.seq as number)?.code_links as string,
        );
        if (++written % 1000 === 0) options.onProgress?.(written, total);
      }
    };
    await list("policies", policies(), true);
    await write("}\n");
    if (temp) {
      out.end();
      await once(out, "finish");
      temp.commit();
    }
    return { versions: written };
  } catch (err) {
    if (temp) {
      (out as ReturnType<typeof createWriteStream>).destroy();
      temp.discard();
    }
    throw err;
  } finally {
    db.close();
  }
}

/** Checks the input of an export: a readable file, and not a JSON dataset (finding 30). */
export function refuseJsonDataset(snapshot: string): void {
  checkInputFile(snapshot, "", "a snapshot");
  if (!isSqliteFile(snapshot) && startsLikeJson(snapshot))
    throw new UsageError(
      `${snapshot} is a JSON dataset already, not a snapshot`,
      "`data export` reads a snapshot (.db); `coverage data build FILE -o FILE.db` makes a snapshot of this one.",
    );
}

/** Whether a file's first character other than white space is `{` (a JSON object). */
function startsLikeJson(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(64);
    return head
      .toString("utf8", 0, readSync(fd, head, 0, 64, 0))
      .trimStart()
      .startsWith("{");
  } finally {
    closeSync(fd);
  }
}
