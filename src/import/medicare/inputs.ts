import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type yauzl from "yauzl";
import { UsageError } from "../../errors.js";
import { listEntries, openEntry, openZipFile } from "../mcd/sources.js";

/** One data file among the inputs (a text or CSV file, or such an entry of a zip). */
export interface RuleInput {
  /** The file's own name (`ccipra-v322r0-f1.TXT`). */
  name: string;
  /** Where it was found: `medicare-ncci-...-f1.zip > ccipra-v322r0-f1.TXT`. */
  label: string;
  /** Every name on the way to it, lower case (zip names carry CMS's release too). */
  names: string;
  /** The zip it is in, when it is in one (other files of CMS's zips are passed over). */
  zip?: string;
  /** An Excel workbook (.xlsx: CMS's add-on code edits), read as records of its first sheet. */
  sheet: boolean;
  open(): Promise<Readable>;
}

/** The data files found in the inputs; `close` releases the zips. */
export interface RuleInputs {
  files: RuleInput[];
  close(): void;
}

// The largest entry read from a zip (CMS's largest PTP part is ~300 MB unpacked).
const MAX_ENTRY_BYTES = 4 * 1024 ** 3;
const MAX_RATIO = 200;
const DATA = /\.(txt|csv|xlsx)$/i;
const isSheet = (name: string) => /\.xlsx$/i.test(name);

/**
 * Finds the data files of `data import edits|fees|pa`: text, CSV and Excel (the add-on code
 * edits) files given or in folders,
 * and those inside zips as CMS publishes them (read as they are inflated, never extracted).
 * Other entries (CMS's PDFs and read-me files) are passed over.
 */
export async function findRuleInputs(inputs: string[]): Promise<RuleInputs> {
  const files: RuleInput[] = [];
  const zips: yauzl.ZipFile[] = [];
  const fix =
    "Give the files as CMS publishes them (zips, .txt, .csv or the AOC .xlsx files) or their folder.";

  async function addZip(file: string, label: string): Promise<void> {
    let zip: yauzl.ZipFile;
    let entries: yauzl.Entry[];
    try {
      zip = await openZipFile(file);
      zips.push(zip);
      entries = await listEntries(zip, label);
    } catch (err) {
      throw new UsageError(`${label}: not a readable zip file (${(err as Error).message})`, fix);
    }
    for (const entry of entries) {
      const base = path.posix.basename(entry.fileName);
      if (entry.fileName.endsWith("/") || !DATA.test(base)) continue;
      // CMS's zips also hold Excel copies of their text tables (PPRRVU, MUE): inside a zip only
      // the add-on code workbook is read as a workbook.
      if (isSheet(base) && !/aoc/i.test(base)) continue;
      const where = `${label} > ${base}`;
      const size = entry.uncompressedSize;
      if (
        size > MAX_ENTRY_BYTES ||
        (size > 64 * 1024 ** 2 && size / entry.compressedSize > MAX_RATIO)
      )
        throw new UsageError(
          `${where}: the zip entry declares an unlikely size (${size} bytes)`,
          fix,
        );
      files.push({
        name: base,
        label: where,
        names: `${path.basename(file)} ${base}`.toLowerCase(),
        zip: label,
        sheet: isSheet(base),
        open: () => openEntry(zip, entry),
      });
    }
  }

  async function addPath(file: string, label: string): Promise<void> {
    const info = await stat(file).catch(() => undefined);
    if (!info) throw new UsageError(`cannot read '${label}'`, fix);
    if (info.isDirectory()) {
      for (const name of (await readdir(file)).sort())
        await addPath(path.join(file, name), path.join(label, name));
    } else if (/\.zip$/i.test(file)) await addZip(file, label);
    else if (DATA.test(file) || label === file)
      files.push({
        name: path.basename(file),
        label,
        names: path.basename(file).toLowerCase(),
        sheet: isSheet(file),
        open: () => Promise.resolve(createReadStream(file)),
      });
  }

  try {
    for (const input of inputs) await addPath(input, input);
  } catch (err) {
    for (const zip of zips) zip.close();
    throw err;
  }
  if (files.length === 0) {
    for (const zip of zips) zip.close();
    throw new UsageError(`no .txt, .csv or .xlsx file in ${inputs.join(", ")}`, fix);
  }
  return { files, close: () => zips.forEach((zip) => zip.close()) };
}
