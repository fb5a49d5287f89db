import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import yauzl from "yauzl";
import { UsageError } from "../../errors.js";
import { checkNotSymlink, unsafeNameError } from "./zip-entries.js";

/** One CSV table found in the inputs, opened on demand (never extracted to disk). */
export interface TableSource {
  /** The CSV's file name, lower case (`lcd.csv`): tables are found by name, wherever they sit. */
  name: string;
  /** Where it was found, for messages: `all_data.zip > all_lcd_csv.zip > lcd.csv`. */
  label: string;
  open(): Promise<Readable>;
}

/** The tables found in every input, by name; `close` releases the zip files. */
export interface TableSet {
  tables: Map<string, TableSource[]>;
  inputs: string[];
  close(): Promise<void>;
}

type Zip = yauzl.ZipFile;

/** Opens a zip file for reading its entries one by one. */
export function openZipFile(file: string): Promise<Zip> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );
}

function openZipBuffer(buffer: Buffer): Promise<Zip> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, autoClose: false }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );
}

/** The largest table a zip entry may declare (uncompressed): larger is refused unread. */
export const MAX_ENTRY_BYTES = 8 * 1024 ** 3;
/** The largest zip inside a zip (read into memory to be opened). */
export const MAX_NESTED_ZIP_BYTES = 1024 ** 3;
/** Uncompressed over compressed size past which a large entry is a bomb (CSV text: 5-30). */
export const MAX_RATIO = 200;
// Below this size an entry is read whatever its ratio (a small file of one repeated byte).
const RATIO_FROM_BYTES = 64 * 1024 ** 2;

/** The entries of a zip (a climbing or absolute name is a usage error naming `label`). */
export function listEntries(zip: Zip, label: string): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", (err: Error) => reject(unsafeNameError(err, label, AS_PUBLISHED) ?? err));
    zip.readEntry();
  });
}

const AS_PUBLISHED = "Give the export as CMS publishes it: its entries are plain file names.";

/** Refuses an entry that declares a bomb's size or compression ratio, before it is read. */
function checkEntrySize(entry: yauzl.Entry, where: string, limit: number): void {
  const size = entry.uncompressedSize;
  const ratio = size / Math.max(1, entry.compressedSize);
  const mb = (n: number) => `${Math.round(n / 1024 ** 2).toLocaleString("en-US")} MB`;
  if (size > limit)
    throw new UsageError(
      `${where}: the zip entry declares ${mb(size)}, more than the ${mb(limit)} an entry may have`,
      "The zip is not the MCD export (or is damaged); download it again.",
    );
  if (size >= RATIO_FROM_BYTES && ratio > MAX_RATIO)
    throw new UsageError(
      `${where}: the zip entry expands ${Math.round(ratio)} times (${mb(entry.compressedSize)} to ${mb(size)}), a zip bomb's ratio (the export's tables expand less than ${MAX_RATIO} times)`,
      "The zip is not the MCD export (or is damaged); download it again.",
    );
}

/** A zip whose bytes cannot be inflated (a bad header, a broken stream, a wrong CRC): exit 2. */
function damagedZip(label: string, err: Error): UsageError {
  return new UsageError(
    `${label}: the zip is damaged (${err.message})`,
    "Download the export again: the file is not whole, or was changed after CMS wrote it.",
  );
}

/** An entry's bytes, inflated as they are read; a damaged entry fails naming it (exit 2). */
export function openEntry(
  zip: Zip,
  entry: yauzl.Entry,
  label: string = entry.fileName,
): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(damagedZip(label, err));
      // Through a stream of our own: yauzl's and zlib's errors arrive as the usage error.
      const out = new PassThrough();
      stream.on("error", (e: Error) => out.destroy(damagedZip(label, e)));
      resolve(stream.pipe(out));
    }),
  );
}

async function readEntry(zip: Zip, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const isZip = (name: string) => name.toLowerCase().endsWith(".zip");
const isCsv = (name: string) => name.toLowerCase().endsWith(".csv");

/**
 * Finds the CSV tables in zips (and the `<name>_csv.zip` nested in them), folders (searched
 * recursively) and CSV files. A nested zip is read into memory (it is compressed, a few tens
 * of MB at most) and its CSVs are inflated as they are read.
 */
export async function findTables(inputs: string[]): Promise<TableSet> {
  const tables = new Map<string, TableSource[]>();
  const zips: Zip[] = [];
  const add = (source: TableSource) => {
    const list = tables.get(source.name) ?? [];
    list.push(source);
    tables.set(source.name, list);
  };

  async function addZip(zip: Zip, label: string): Promise<void> {
    for (const entry of await listEntries(zip, label)) {
      const name = entry.fileName;
      if (name.endsWith("/")) continue;
      const base = path.posix.basename(name);
      const where = `${label} > ${base}`;
      checkNotSymlink(entry, label, AS_PUBLISHED);
      if (isCsv(base)) {
        checkEntrySize(entry, where, MAX_ENTRY_BYTES);
        add({ name: base.toLowerCase(), label: where, open: () => openEntry(zip, entry, where) });
      } else if (isZip(base)) {
        checkEntrySize(entry, where, MAX_NESTED_ZIP_BYTES);
        await addZip(await openZipBuffer(await readEntry(zip, entry)), where);
      }
    }
  }

  async function addZipFile(file: string, label: string): Promise<void> {
    let zip: Zip;
    try {
      zip = await openZipFile(file);
    } catch (err) {
      throw new UsageError(
        `${label}: not a readable zip file (${(err as Error).message})`,
        "Give the zip as downloaded from the MCD downloads page, or the folder it was extracted to.",
      );
    }
    zips.push(zip);
    await addZip(zip, label);
  }

  async function addPath(file: string, label: string): Promise<void> {
    const info = await stat(file).catch(() => undefined);
    if (!info)
      throw new UsageError(
        `cannot read '${label}'`,
        "Give the MCD export as downloaded (all_data.zip, current_lcd.zip, ...) or the folder it was extracted to.",
      );
    if (info.isDirectory()) {
      const names = (await readdir(file)).sort();
      for (const name of names) {
        const child = path.join(file, name);
        const childInfo = await stat(child).catch(() => undefined);
        if (childInfo?.isDirectory()) await addPath(child, path.join(label, name));
        else if (isCsv(name))
          add({
            name: name.toLowerCase(),
            label: path.join(label, name),
            open: () => Promise.resolve(createReadStream(child)),
          });
        else if (isZip(name)) await addZipFile(child, path.join(label, name));
      }
    } else if (isZip(file)) await addZipFile(file, label);
    else if (isCsv(file))
      add({
        name: path.basename(file).toLowerCase(),
        label,
        open: () => Promise.resolve(createReadStream(file)),
      });
    else
      throw new UsageError(
        `'${label}' is not a zip, a CSV file or a folder`,
        "Give the MCD export as downloaded (all_data.zip, current_lcd.zip, ...) or the folder it was extracted to.",
      );
  }

  try {
    for (const input of inputs) await addPath(input, input);
  } catch (err) {
    for (const zip of zips) zip.close();
    throw err;
  }
  return {
    tables,
    inputs,
    close: async () => {
      for (const zip of zips) zip.close();
    },
  };
}

/** Opens the first entry of a zip whose name passes `want`, or the file itself when not a zip. */
export async function openTextInput(
  file: string,
  want: (name: string) => boolean,
  flag: string,
): Promise<{ stream: Readable; close: () => void }> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile())
    throw new UsageError(`${flag}: cannot read '${file}'`, "Give the file as CMS publishes it.");
  if (!isZip(file)) return { stream: createReadStream(file), close: () => undefined };
  const zip = await openZipFile(file);
  const entry = (await listEntries(zip, file)).find((e) => want(path.posix.basename(e.fileName)));
  if (!entry) {
    zip.close();
    throw new UsageError(
      `${flag}: no matching text file inside '${file}'`,
      "Give the .txt file, or the zip CMS publishes that holds it.",
    );
  }
  return { stream: await openEntry(zip, entry), close: () => zip.close() };
}
