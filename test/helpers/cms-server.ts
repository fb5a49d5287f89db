// A loopback server that plays CMS for `coverage data pull medicare`: the MCD exports under
// /exports/, the ICD-10 and HCPCS pages with their links, and the code-file zips. It answers
// conditional requests (ETag, Last-Modified) and range requests, and can drop a connection
// half-way, send slowly, or answer 404, as a test tells it.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ServerResponse } from "node:http";
import yauzl from "yauzl";
import yazl from "yazl";
import { anwebLines, icd10OrderLine, writeMcdExport, type Rows } from "./mcd-export.js";
import { startScripted, type Scripted } from "./server.js";
import iconv from "iconv-lite";

export interface CmsFile {
  body: Buffer;
  etag: string;
  lastModified: string;
}

export interface CmsServer extends Scripted {
  /** Files by path (`/exports/ncd.zip`, `/files/zip/...`); pages are files too. */
  files: Map<string, CmsFile>;
  /** Paths whose next full answer stops half-way (the socket destroyed). */
  dropOnce: Set<string>;
  /** Paths answered slowly (16 KB every 100 ms) until the client goes away. */
  slow: Set<string>;
  /** Paths answered 404. */
  missing: Set<string>;
  /** Whether range requests are honoured (Accept-Ranges: bytes). */
  ranges: boolean;
  /**
   * Awaited after a dropped path's half is written and before the socket is destroyed. A
   * test sets it to wait until the client has those bytes (a fixed delay would make the
   * resume point depend on the machine's load: undici discards a body it has not handed on).
   */
  beforeDrop: ((file: string, sent: number) => Promise<void>) | undefined;
  /** Resolves once a slow path has sent its first bytes. */
  slowStarted: Promise<void>;
  /** Puts a new version of a file (a new ETag and date). */
  put(file: string, body: Buffer): void;
  /** The GETs of one path, as recorded. */
  gets(file: string): Scripted["requests"];
}

const ICD10_ZIP = "/files/zip/april-1-2026-code-descriptions-tabular-order.zip";
const HCPCS_ZIP = "/files/zip/april-2026-alpha-numeric-hcpcs-file.zip";
export const ICD10_PAGE = "/medicare/coding-billing/icd-10-codes";
export const HCPCS_PAGE = "/medicare/coding-billing/hcpcs/quarterly-update";

/** A zip of the given entries, in memory. */
export async function zipOf(entries: Array<[string, Buffer]>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The entries of a zip in memory. */
export function unzipOf(body: Buffer): Promise<Array<[string, Buffer]>> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(body, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const out: Array<[string, Buffer]> = [];
      zip.on("entry", (entry: yauzl.Entry) =>
        zip.openReadStream(entry, async (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          for await (const c of stream) chunks.push(c as Buffer);
          out.push([entry.fileName, Buffer.concat(chunks)]);
          zip.readEntry();
        }),
      );
      zip.on("end", () => resolve(out));
      zip.readEntry();
    }),
  );
}

/** The three current exports (`ncd.zip`, `current_lcd.zip`, `current_article.zip`) of tables. */
export async function exportZips(
  dir: string,
  tables: Record<string, () => Rows>,
): Promise<Map<string, Buffer>> {
  const written = await writeMcdExport(dir, tables, "separate");
  const out = new Map<string, Buffer>();
  for (const file of written) {
    const name = path.basename(file).replace(/^all_/, "current_");
    out.set(name, await readFile(file));
  }
  return out;
}

/** The ICD-10-CM order file and the HCPCS ANWEB file, zipped as CMS publishes them. */
export async function codeZips(): Promise<{ icd10: Buffer; hcpcs: Buffer }> {
  const latin1 = (lines: string[]) => iconv.encode(lines.join("\r\n") + "\r\n", "win1252");
  const icd10 = await zipOf([
    [
      "icd10cm_order_2026.txt",
      latin1([
        icd10OrderLine(1, "E11", false, "Diabetes type two (order file header)"),
        icd10OrderLine(2, "E119", true, "Diabetes type two without complication (order file)"),
      ]),
    ],
    ["README.txt", Buffer.from("stand-in")],
  ]);
  const hcpcs = await zipOf([
    [
      "HCPC2026_APR_ANWEB_v2.txt",
      latin1([
        ...anwebLines("L1833", "Knee brace, adjustable joints, sample wording for the pull tests"),
        ...anwebLines("A4253", "Test strips for a glucose meter, per fifty (pull wording)"),
      ]),
    ],
  ]);
  return { icd10, hcpcs };
}

/** The ICD-10 page: older and newer files, and look-alikes that must not be chosen. */
export function icd10Page(link = ICD10_ZIP): string {
  return `<!doctype html><html><body><h2>ICD-10 Files</h2><ul>
<li><a href="/files/zip/2026-icd-10-pcs-order-file-long-and-abbreviated-titles.zip">2026 ICD-10-PCS Order File (ZIP)</a></li>
<li><a href="/files/zip/2026-code-descriptions-tabular-order.zip">2026 Code Descriptions in Tabular Order (ZIP)</a></li>
<li><a href="${link}">April 1, 2026 Code Descriptions in Tabular Order (ZIP)</a></li>
<li><a href='/files/zip/2025-code-descriptions-tabular-order.zip'>2025 Code Descriptions in Tabular Order (ZIP)</a></li>
<li><a href="/files/zip/2026-conversion-table.zip">2026 Conversion Table (ZIP)</a></li>
</ul></body></html>`;
}

/** The HCPCS quarterly update page. */
export function hcpcsPage(link = HCPCS_ZIP): string {
  return `<html><body><ul>
<li><a href="/files/zip/january-2026-alpha-numeric-hcpcs-file.zip">January 2026 Alpha-Numeric HCPCS File (ZIP)</a></li>
<li><a href="${link}">April 2026 Alpha-Numeric HCPCS File (ZIP)</a></li>
<li><a href="/files/zip/october-2025-alpha-numeric-hcpcs-file.zip">October 2025 Alpha-Numeric HCPCS File (ZIP)</a></li>
<li><a href="/files/document/hcpcs-quarterly-update-2026.pdf">Notes (PDF)</a></li>
</ul></body></html>`;
}

let version = 0;
function stamp(body: Buffer): CmsFile {
  version++;
  const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}-${version}"`;
  const lastModified = new Date(Date.UTC(2026, 3, 1, 0, 0, version)).toUTCString();
  return { body, etag, lastModified };
}

function sendSlowly(res: ServerResponse, body: Buffer, started: () => void): void {
  let at = 0;
  const next = () => {
    if (res.destroyed || at >= body.length) return void res.end();
    res.write(body.subarray(at, at + 16_384));
    at += 16_384;
    started();
    setTimeout(next, 100);
  };
  next();
}

/** Starts the server with the exports and code files given (paths as CMS's). */
export async function startCms(initial: Record<string, Buffer | string>): Promise<CmsServer> {
  const files = new Map<string, CmsFile>();
  const dropOnce = new Set<string>();
  const slow = new Set<string>();
  const missing = new Set<string>();
  let onSlow = () => {};
  const slowStarted = new Promise<void>((resolve) => (onSlow = resolve));
  const state: {
    ranges: boolean;
    beforeDrop: ((file: string, sent: number) => Promise<void>) | undefined;
  } = { ranges: true, beforeDrop: undefined };
  const server = await startScripted((req, res) => {
    const url = new URL(req.url ?? "/", "http://x").pathname;
    const file = files.get(url);
    if (!file || missing.has(url)) {
      res.writeHead(404, { "content-type": "text/html" });
      return void res.end("<html>Not found</html>");
    }
    const common: Record<string, string> = {
      etag: file.etag,
      "last-modified": file.lastModified,
      "content-type": url.endsWith(".zip") ? "application/zip" : "text/html; charset=utf-8",
    };
    if (state.ranges) common["accept-ranges"] = "bytes";
    const inm = req.headers["if-none-match"];
    const ims = req.headers["if-modified-since"];
    if ((inm && inm === file.etag) || (!inm && ims && ims === file.lastModified)) {
      res.writeHead(304, common);
      return void res.end();
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const ifRange = req.headers["if-range"];
    if (
      state.ranges &&
      range &&
      (!ifRange || ifRange === file.etag || ifRange === file.lastModified)
    ) {
      const start = Number(range[1]);
      const rest = file.body.subarray(start);
      res.writeHead(206, {
        ...common,
        "content-length": String(rest.length),
        "content-range": `bytes ${start}-${file.body.length - 1}/${file.body.length}`,
      });
      return void res.end(rest);
    }
    res.writeHead(200, { ...common, "content-length": String(file.body.length) });
    if (slow.has(url)) return sendSlowly(res, file.body, onSlow);
    if (dropOnce.has(url)) {
      dropOnce.delete(url);
      const half = Math.floor(file.body.length / 2);
      const drop = () => res.socket?.destroy();
      res.write(file.body.subarray(0, half), () => {
        if (state.beforeDrop) void state.beforeDrop(url, half).finally(drop);
        else setTimeout(drop, 20);
      });
      return;
    }
    res.end(file.body);
  });
  for (const [name, body] of Object.entries(initial))
    files.set(name, stamp(typeof body === "string" ? Buffer.from(body) : body));
  return Object.assign(server, {
    files,
    dropOnce,
    slow,
    missing,
    slowStarted,
    get ranges() {
      return state.ranges;
    },
    set ranges(value: boolean) {
      state.ranges = value;
    },
    get beforeDrop() {
      return state.beforeDrop;
    },
    set beforeDrop(hook) {
      state.beforeDrop = hook;
    },
    put(name: string, body: Buffer) {
      files.set(name, stamp(body));
    },
    gets(name: string) {
      return server.requests.filter((r) => new URL(r.url, "http://x").pathname === name);
    },
  });
}

/** Everything the CMS server holds for a full pull: exports, pages and code files. */
export async function cmsContent(
  dir: string,
  tables: Record<string, () => Rows>,
): Promise<Record<string, Buffer | string>> {
  const exports = await exportZips(dir, tables);
  const { icd10, hcpcs } = await codeZips();
  const content: Record<string, Buffer | string> = {
    [ICD10_PAGE]: icd10Page(),
    [HCPCS_PAGE]: hcpcsPage(),
    [ICD10_ZIP]: icd10,
    [HCPCS_ZIP]: hcpcs,
  };
  for (const [name, body] of exports) content[`/exports/${name}`] = body;
  return content;
}

export { ICD10_ZIP, HCPCS_ZIP };

/** `data pull medicare` from a CMS server: its exports and both code pages, then `extra`. */
export function pullArgsFor(cmsUrl: string, ...extra: string[]): string[] {
  return [
    "data",
    "pull",
    "medicare",
    "--source",
    `${cmsUrl}/exports/`,
    "--icd10cm-url",
    `${cmsUrl}${ICD10_PAGE}`,
    "--hcpcs-url",
    `${cmsUrl}${HCPCS_PAGE}`,
    ...extra,
  ];
}
