// `npm run bench pull`: `coverage data pull medicare` from a loopback server that plays CMS,
// serving the generated export of the published size (the one `npm run bench mcd` imports,
// split into ncd.zip, current_lcd.zip and current_article.zip) and the two code files. Reports
// the first pull against `data import mcd` of the same files (the pull's own cost beyond the
// import: downloads on loopback, the zip checks, the manifest, the summary of changes), and a
// second pull with nothing changed (target < 2 s).
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import yauzl from "yauzl";
import yazl from "yazl";
import { BIN, OUT, cleanEnv, fmt, median, printTable, runTimed, verdict } from "./lib.mjs";
import { ensureExport } from "./mcd-import.mjs";

const RUNS = Number(process.env.BENCH_PULL_RUNS ?? 2);
const DIR = path.join(OUT, "pull");

/** The entries of a zip held in memory: [name, bytes]. */
export function readZipBuffer(buffer) {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = [];
      zip.on("entry", (entry) =>
        zip.openReadStream(entry, async (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          for await (const c of stream) chunks.push(c);
          entries.push([entry.fileName, Buffer.concat(chunks)]);
          zip.readEntry();
        }),
      );
      zip.on("end", () => resolve(entries));
      zip.readEntry();
    }),
  );
}

function readZip(file) {
  return readZipBuffer(readFileSync(file));
}

export async function zipOf(entries) {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  zip.end();
  const chunks = [];
  for await (const c of zip.outputStream) chunks.push(c);
  return Buffer.concat(chunks);
}

/** The files CMS would serve, from the bench's generated export: path → bytes. */
export async function cmsFiles(args) {
  const [allData, , icd10, , hcpcs] = args;
  const files = new Map();
  const nested = await readZip(allData);
  for (const [name, export_] of [
    ["ncd.zip", "ncd"],
    ["current_lcd.zip", "all_lcd"],
    ["current_article.zip", "all_article"],
  ]) {
    const inner = nested.filter(([n]) => n.startsWith(`${export_}/`));
    files.set(
      `/exports/${name}`,
      await zipOf(inner.map(([n, b]) => [n.slice(export_.length + 1), b])),
    );
  }
  files.set("/files/icd10cm.zip", await zipOf([["icd10cm_order_2026.txt", readFileSync(icd10)]]));
  files.set("/files/hcpcs.zip", await zipOf([["HCPC2026_JAN_ANWEB.txt", readFileSync(hcpcs)]]));
  return files;
}

export async function serve(files) {
  const tags = new Map(
    [...files].map(([p, b]) => [p, `"${createHash("sha1").update(b).digest("hex")}"`]),
  );
  const server = http.createServer((req, res) => {
    const body = files.get(req.url);
    if (!body) return void res.writeHead(404).end();
    const etag = tags.get(req.url);
    if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { etag, "content-length": body.length, "accept-ranges": "bytes" });
    res.end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  /** A new version of a file (a new ETag). */
  const put = (p, body) => {
    files.set(p, body);
    tags.set(p, `"${createHash("sha1").update(body).digest("hex")}"`);
  };
  return { server, url: `http://127.0.0.1:${server.address().port}`, put };
}

/** The bench part: first pull vs the import of the same files; a second pull, unchanged. */
export async function dataPull() {
  console.log(
    `\n## data pull medicare: the export of the published size from a loopback CMS (${RUNS} runs; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})`,
  );
  mkdirSync(DIR, { recursive: true });
  const files = await cmsFiles(ensureExport());
  const zips = [...files.values()].reduce((n, b) => n + b.length, 0);
  const { server, url } = await serve(files);
  try {
    const saved = path.join(DIR, "files");
    mkdirSync(saved, { recursive: true });
    for (const [p, b] of files) writeFileSync(path.join(saved, path.basename(p)), b);
    const pullArgs = [
      BIN,
      "data",
      "pull",
      "medicare",
      "--source",
      `${url}/exports/`,
      "--icd10cm-url",
      `${url}/files/icd10cm.zip`,
      "--hcpcs-url",
      `${url}/files/hcpcs.zip`,
    ];
    const importArgs = [
      BIN,
      "data",
      "import",
      "mcd",
      ...["ncd.zip", "current_lcd.zip", "current_article.zip"].map((n) => path.join(saved, n)),
      "--icd10cm",
      path.join(saved, "icd10cm.zip"),
      "--hcpcs",
      path.join(saved, "hcpcs.zip"),
      "-o",
      path.join(DIR, "imported.db"),
      "--force",
    ];
    const home = path.join(DIR, "data-home");
    const env = cleanEnv({ XDG_DATA_HOME: home });
    const first = [];
    const imports = [];
    const second = [];
    for (let i = 0; i < RUNS; i++) {
      rmSync(home, { recursive: true, force: true });
      const imp = await runTimed(process.execPath, importArgs, { rss: true });
      if (imp.code !== 0) throw new Error(`import failed:\n${imp.stderr}`);
      imports.push(imp);
      const p = await runTimed(process.execPath, pullArgs, { env, rss: true });
      if (p.code !== 0) throw new Error(`pull failed:\n${p.stderr}`);
      first.push(p);
      const again = await runTimed(process.execPath, pullArgs, { env });
      if (again.code !== 0 || !/already current/.test(again.stderr))
        throw new Error(`second pull did not find the catalogue current:\n${again.stderr}`);
      second.push(again);
    }
    const ms = (runs) => median(runs.map((r) => r.ms));
    const rss = (runs) => Math.max(...runs.map((r) => r.maxRssKb ?? 0));
    const db = statSync(path.join(home, "coverage", "medicare.db")).size;
    printTable(
      ["case", "median ms", "peak RSS"],
      [
        [
          `data import mcd of the same files`,
          fmt(ms(imports)),
          `${fmt(rss(imports) / 1024, 0)} MB`,
        ],
        [
          `data pull medicare, first (${fmt(zips / 1e6, 0)} MB of zips; snapshot ${fmt(db / 1e6, 0)} MB)`,
          fmt(ms(first)),
          `${fmt(rss(first) / 1024, 0)} MB`,
        ],
        ["data pull medicare, nothing changed", fmt(ms(second)), ""],
      ],
    );
    console.log(
      `  the pull's own cost beyond the import: ${fmt((ms(first) - ms(imports)) / 1000, 1)} s (loopback downloads, zip checks, manifest)`,
    );
    verdict("first pull < 60 s", ms(first) < 60_000, `${fmt(ms(first) / 1000, 1)} s`);
    verdict("second pull, nothing changed, < 2 s", ms(second) < 2_000, `${fmt(ms(second))} ms`);
  } finally {
    server.close();
  }
}
