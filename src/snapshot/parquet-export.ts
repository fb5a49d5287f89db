// `coverage data export SNAPSHOT.db --format parquet -o DIR` (cli.md, "Beyond one machine"):
// one Parquet file per table of parquet-tables.ts, streamed from the snapshot a row group at a
// time, so memory holds one row group whatever the snapshot's size.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import type { DatabaseSync, SQLOutputValue } from "node:sqlite";
import type { CodeSystem } from "../contract/index.js";
import { normaliseCode } from "../domain/codes.js";
import { InterruptedError, UsageError } from "../errors.js";
import { createTempOutput, type TempOutput } from "../files/temp-output.js";
import { refuseJsonDataset } from "./export.js";
import {
  CORE_TABLES,
  genericTable,
  MEDICARE_TABLES,
  OPTIONAL_TABLES,
  type DeclaredColumn,
  type ParquetColumn,
  type ParquetTable,
} from "./parquet-tables.js";
import { dayNumber } from "./days.js";
import { numberDate } from "./medicare-schema.js";
import { openSnapshotDatabase } from "./store.js";

type Value = string | number | bigint | Uint8Array | null;

export interface ParquetExportOptions {
  /** Write into a folder that holds other files (its Parquet files are replaced). */
  force?: boolean;
  signal?: AbortSignal | undefined;
  /** Called after each row group with the table and its rows so far. */
  onProgress?: (table: string, rows: number) => void;
  /** The files' `created_by` (the command passes `coverage VERSION`). */
  createdBy?: string;
  /** Rows per row group (the most a batch holds); tests make it small. */
  rowGroupRows?: number;
}

/** What was written: each table's name and row count, in the order written. */
export interface ParquetExportResult {
  folder: string;
  tables: Array<{ name: string; rows: number }>;
}

// A row group closes at this many rows, or sooner when its text passes ROW_GROUP_BYTES (a
// policies table with long criteria texts): memory is one row group.
const ROW_GROUP_ROWS = 100_000;
const ROW_GROUP_BYTES = 32 * 1024 * 1024;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The tables of this snapshot, in export order: the core ones, then the optional ones it has. */
export function tablesOf(db: DatabaseSync): ParquetTable[] {
  const present = new Set(
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name as string),
  );
  const tables = CORE_TABLES.filter((t) => t.needs.every((n) => present.has(n)));
  const hasRows = (name: string) =>
    db.prepare(`SELECT 1 AS found FROM "${name}" LIMIT 1`).get() !== undefined;
  const laidOut = MEDICARE_TABLES.filter((t) => t.needs.every((n) => present.has(n)));
  tables.push(...laidOut.filter((t) => hasRows(t.needs[0]!)));
  for (const name of OPTIONAL_TABLES) {
    if (!present.has(name) || laidOut.some((t) => t.name === name)) continue;
    const declared = db
      .prepare(`PRAGMA table_info("${name}")`)
      .all()
      .map((r) => ({ name: r.name as string, type: String(r.type ?? "") }) as DeclaredColumn);
    tables.push(genericTable(name, declared));
  }
  return tables;
}

/** The days since 1970-01-01 of a `YYYY-MM-DD` text (Parquet's DATE), any year 0000-9999. */
function daysOf(raw: SQLOutputValue, table: string, column: string): number {
  // The dossier's tables hold dates as YYYYMMDD numbers.
  const value = typeof raw === "number" ? numberDate(raw) : String(raw);
  if (!DAY.test(value))
    throw new UsageError(
      `${table}.${column}: '${value}' is not a date (YYYY-MM-DD)`,
      "The snapshot holds a value the export cannot write as DATE; rebuild it with this release.",
    );
  return dayNumber(value);
}

/** A value as its Parquet column holds it (`system`: the row's code system, for a code). */
function convert(
  value: SQLOutputValue | undefined,
  column: ParquetColumn,
  table: string,
  system: SQLOutputValue | undefined,
): Value {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case "DATE":
      return daysOf(value, table, column.name);
    case "INT64":
      return BigInt(value as number | bigint);
    case "DOUBLE":
      return Number(value);
    case "BYTE_ARRAY":
      return value instanceof Uint8Array ? value : new TextEncoder().encode(String(value));
    default: {
      const s = String(value);
      if (!column.code) return s;
      return normaliseCode((typeof system === "string" ? system : "CPT") as CodeSystem, s);
    }
  }
}

/** Parquet's schema of a table: every column optional (a null is written as a null). */
function schemaOf(table: ParquetTable) {
  const types = {
    STRING: { type: "BYTE_ARRAY", converted_type: "UTF8" },
    DATE: { type: "INT32", converted_type: "DATE" },
    INT64: { type: "INT64" },
    DOUBLE: { type: "DOUBLE" },
    BYTE_ARRAY: { type: "BYTE_ARRAY" },
  } as const;
  return [
    { name: "root", num_children: table.columns.length },
    ...table.columns.map((c) => ({ name: c.name, repetition_type: "OPTIONAL", ...types[c.type] })),
  ] as const;
}

/** Where the table files go: a new folder put in place at the end, or an existing one. */
interface Destination {
  pathFor(table: string): string;
  /** Puts every file in place at once (synchronously: a signal finds all or none). */
  commit(tables: readonly string[]): void;
  discard(): void;
}

/**
 * The output folder checked before any work: a file is refused; a folder holding anything is
 * refused unless `force` (never a mix of two exports: with it, Parquet files of an earlier
 * export that this one does not write are removed at the commit).
 */
function openDestination(output: string, options: ParquetExportOptions): Destination {
  if (output === "-")
    throw new UsageError(
      "-o -: a Parquet export is a folder of files, not a stream",
      "Give a folder with -o, e.g. -o catalogue-parquet/.",
    );
  const target = path.resolve(output);
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) {
    if (!statSync(path.dirname(target), { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(
        `-o ${output}: the folder ${path.dirname(output)} does not exist`,
        "Create it first, or choose another path with -o.",
      );
    const temp = createTempOutput(target, {
      kind: "folder",
      signal: options.signal,
      shown: output,
    });
    mkdirSync(temp.path);
    return {
      pathFor: (table) => path.join(temp.path, `${table}.parquet`),
      commit: () => temp.commit(),
      discard: () => temp.discard(),
    };
  }
  if (!info.isDirectory())
    throw new UsageError(
      `${output} is a file; a Parquet export is a folder`,
      "Give a folder with -o (a new one is created).",
    );
  const present = readdirSync(target);
  if (present.length && !options.force)
    throw new UsageError(
      `${output} holds other files (${present.slice(0, 3).join(", ")}${present.length > 3 ? ", ..." : ""})`,
      "Export into an empty or new folder, or add --force to replace its Parquet files.",
    );
  // A folder of that name (Spark writes a table as one) would be neither replaced nor removed.
  const folder = present.find(
    (name) => name.endsWith(".parquet") && statSync(path.join(target, name)).isDirectory(),
  );
  if (folder)
    throw new UsageError(
      `${path.join(output, folder)} is a folder, not a file this export can replace`,
      "Move it away, or export into another folder.",
    );
  const temps = new Map<string, TempOutput>();
  return {
    pathFor(table) {
      const temp = createTempOutput(path.join(target, `${table}.parquet`), {
        force: true,
        signal: options.signal,
        shown: path.join(output, `${table}.parquet`),
      });
      temps.set(table, temp);
      return temp.path;
    },
    commit(tables) {
      const written = new Set(tables.map((t) => `${t}.parquet`));
      for (const name of readdirSync(target))
        if (name.endsWith(".parquet") && !written.has(name)) unlinkSync(path.join(target, name));
      for (const temp of temps.values()) temp.commit();
    },
    discard() {
      for (const temp of temps.values()) temp.discard();
    },
  };
}

/** The file writer of hyparquet-writer's ParquetWriter: each row group goes to disk at once. */
async function openFileWriter(file: string) {
  const { ByteWriter } = await import("hyparquet-writer");
  // Opened synchronously and exclusively: a signal's removal of the temporary name can never
  // be followed by an open that recreates it.
  const fd = openSync(file, "wx");
  const writer = new ByteWriter(1 << 20);
  const flush = () => {
    if (writer.index > 0) writeSync(fd, new Uint8Array(writer.buffer, 0, writer.index));
    writer.index = 0;
  };
  return Object.assign(writer, {
    flush,
    finish() {
      flush();
    },
    close: () => closeSync(fd),
  });
}

/** Writes one table; returns its row count. `about`: the key-value metadata of every file. */
async function writeTable(
  db: DatabaseSync,
  table: ParquetTable,
  file: string,
  options: ParquetExportOptions,
  about: Array<{ key: string; value: string }>,
): Promise<number> {
  const { ParquetWriter } = await import("hyparquet-writer");
  const writer = await openFileWriter(file);
  try {
    const parquet = new ParquetWriter({
      writer,
      schema: schemaOf(table) as never,
      createdBy: options.createdBy ?? "coverage",
      kvMetadata: about,
    });
    const limit = options.rowGroupRows ?? ROW_GROUP_ROWS;
    const columns = table.columns;
    let batch: Value[][] = columns.map(() => []);
    let size = 0;
    let rows = 0;
    const flush = async () => {
      if (!batch[0]!.length) return;
      const n = batch[0]!.length;
      parquet.write({
        columnData: columns.map((c, i) => ({ name: c.name, data: batch[i]! as never })),
        rowGroupSize: n,
      });
      rows += n;
      batch = columns.map(() => []);
      size = 0;
      options.onProgress?.(table.name, rows);
      // Between row groups the run's Ctrl-C is heard (the temporary files are then removed).
      await new Promise((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) throw new InterruptedError("export interrupted");
    };
    // The query's columns are the table's, in order: rows are read as arrays where Node.js
    // can (an object per row of a million was a third of the time, in garbage collection).
    const statement = db.prepare(
      table.select ??
        `SELECT ${columns.map((c) => `"${c.name}"`).join(", ")} FROM "${table.name}" ORDER BY rowid`,
    );
    statement.setReturnArrays?.(true);
    const arrays = Boolean(statement.setReturnArrays);
    const systemAt = columns.findIndex((c) => c.name === "code_system");
    for (const read of statement.iterate()) {
      const row = arrays ? (read as unknown as SQLOutputValue[]) : Object.values(read);
      const system = systemAt < 0 ? undefined : row[systemAt];
      for (let i = 0; i < columns.length; i++) {
        const value = convert(row[i], columns[i]!, table.name, system);
        batch[i]!.push(value);
        if (typeof value === "string") size += value.length;
      }
      if (batch[0]!.length >= limit || size >= ROW_GROUP_BYTES) await flush();
    }
    await flush();
    parquet.finish();
    return rows;
  } finally {
    writer.close();
  }
}

/**
 * Writes a snapshot's tables as Parquet files into a folder: to temporary names put in place
 * together when every table is written; a failure or a signal leaves no Parquet file behind.
 */
export async function exportParquet(
  snapshot: string,
  output: string,
  options: ParquetExportOptions = {},
): Promise<ParquetExportResult> {
  refuseJsonDataset(snapshot);
  const { db, meta } = await openSnapshotDatabase(snapshot, { older: true });
  // What the catalogue is, in every file: its date and source (DuckDB: parquet_kv_metadata).
  const about = (["as_of", "source"] as const)
    .filter((key) => meta.get(key) !== null && meta.get(key) !== undefined)
    .map((key) => ({ key: `coverage.${key}`, value: String(meta.get(key)) }));
  let destination: Destination | undefined;
  try {
    destination = openDestination(output, options);
    const written: ParquetExportResult["tables"] = [];
    for (const table of tablesOf(db)) {
      const file = destination.pathFor(table.name);
      const rows = await writeTable(db, table, file, options, about);
      written.push({ name: table.name, rows });
    }
    destination.commit(written.map((t) => t.name));
    return { folder: output, tables: written };
  } catch (err) {
    destination?.discard();
    if (err instanceof UsageError || err instanceof InterruptedError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code)
      throw new UsageError(
        `cannot write ${output} (${code})`,
        "Check that the output folder is writable and has room.",
      );
    throw err;
  } finally {
    db.close();
  }
}
