// CMS publishes the NCCI add-on code edits as an Excel workbook (AOC_V2026Q2-MCR.xlsx in a zip):
// its first worksheet is read here as records of text cells, as a CSV's are, so the same layout
// and row readers take it. A workbook is a zip of XML parts; fast-xml-parser reads them.
import type { Readable } from "node:stream";
import { XMLParser } from "fast-xml-parser";
import type yauzl from "yauzl";
import { UsageError } from "../../errors.js";
import { listEntries, openEntry, openZipBuffer } from "../mcd/sources.js";

/** The largest workbook read (CMS's AOC workbook is about 1 MB; it is read into memory). */
export const MAX_WORKBOOK_BYTES = 64 * 1024 ** 2;
/** The largest part of a workbook inflated (its sheet's XML). */
const MAX_PART_BYTES = 512 * 1024 ** 2;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  trimValues: false,
  isArray: (name, _path, _leaf, isAttribute) =>
    !isAttribute && ["si", "r", "row", "c", "sheet", "Relationship"].includes(name),
});

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : v ? [v as Node] : []);
const text = (v: unknown): string =>
  typeof v === "string" ? v : v && typeof v === "object" ? String((v as Node)["#text"] ?? "") : "";

async function readAll(stream: Readable, limit: number, label: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new UsageError(
        `${label}: larger than the ${limit / 1024 ** 2} MB a workbook may be`,
        "Give the add-on code workbook as CMS publishes it (nothing was imported).",
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A shared string's text: plain (`<t>`) or rich (runs of `<r><t>`). */
function sharedString(si: Node): string {
  if (si.t !== undefined) return text(si.t);
  return list(si.r)
    .map((r) => text(r.t))
    .join("");
}

/** `B12` to 1. */
function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of /^[A-Z]+/.exec(ref)?.[0] ?? "") n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * The first worksheet of an xlsx workbook (in workbook order) as records of text: shared and
 * inline strings as written, numbers as their digits. Empty cells are empty strings.
 */
export async function readSheetRecords(stream: Readable, label: string): Promise<string[][]> {
  const fix = "Give the add-on code workbook as CMS publishes it (nothing was imported).";
  let zip: yauzl.ZipFile;
  let entries: yauzl.Entry[];
  try {
    zip = await openZipBuffer(await readAll(stream, MAX_WORKBOOK_BYTES, label));
    entries = await listEntries(zip, label);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `${label}: not a readable Excel workbook (${(err as Error).message})`,
      fix,
    );
  }
  try {
    const byName = new Map(entries.map((e) => [e.fileName, e]));
    const part = async (name: string): Promise<Node | undefined> => {
      const entry = byName.get(name);
      if (!entry) return undefined;
      if (entry.uncompressedSize > MAX_PART_BYTES)
        throw new UsageError(`${label}: its part ${name} declares an unlikely size`, fix);
      const bytes = await readAll(await openEntry(zip, entry), MAX_PART_BYTES, label);
      return parser.parse(bytes.toString("utf8")) as Node;
    };
    const sheetPath = await firstSheetPath(part);
    const sheet = await part(sheetPath);
    if (!sheet) throw new UsageError(`${label}: not an Excel workbook (no worksheet)`, fix);
    const strings = list(((await part("xl/sharedStrings.xml"))?.sst as Node | undefined)?.si).map(
      sharedString,
    );
    const rows = list(((sheet.worksheet as Node | undefined)?.sheetData as Node | undefined)?.row);
    return rows.map((row) => {
      const record: string[] = [];
      list(row.c).forEach((c, i) => {
        const at = typeof c.r === "string" ? columnIndex(c.r) : i;
        const value =
          c.t === "s"
            ? (strings[Number(text(c.v))] ?? "")
            : c.t === "inlineStr"
              ? sharedString((c.is as Node | undefined) ?? {})
              : text(c.v);
        while (record.length < at) record.push("");
        record[at] = value;
      });
      return record;
    });
  } finally {
    zip.close();
  }
}

/** The path of the workbook's first sheet (workbook.xml's order, through its relationships). */
async function firstSheetPath(part: (name: string) => Promise<Node | undefined>): Promise<string> {
  const fallback = "xl/worksheets/sheet1.xml";
  const workbook = (await part("xl/workbook.xml"))?.workbook as Node | undefined;
  const first = list((workbook?.sheets as Node | undefined)?.sheet)[0];
  const id = first?.["r:id"];
  if (typeof id !== "string") return fallback;
  const rels = (await part("xl/_rels/workbook.xml.rels"))?.Relationships as Node | undefined;
  const target = list(rels?.Relationship).find((r) => r.Id === id)?.Target;
  if (typeof target !== "string") return fallback;
  return target.startsWith("/") ? target.slice(1) : `xl/${target}`;
}
