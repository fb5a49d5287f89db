// `coverage data pull medicare` against servers that never finish (findings/reliability-2.md
// P6, P7, P8): a trickle past the deadline, a silence past the stall limit, a resumed answer of
// another version, entries no export holds. Each leaves the earlier snapshot as it was.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCoverage } from "../helpers/cli.js";
import { folderState as listFolder } from "../helpers/folder-state.js";
import { exportZips, unzipOf, zipOf } from "../helpers/cms-server.js";
import { sampleTables } from "../helpers/mcd-sample.js";
import { startScripted, type Scripted } from "../helpers/server.js";
import { SQLITE } from "../helpers/snapshot.js";

const work = mkdtempSync(path.join(os.tmpdir(), "coverage-pull-stall-"));
const dataHome = path.join(work, "data-home");
const folder = path.join(dataHome, "coverage");

interface Served {
  body: Buffer;
  etag: string;
}
/** How the server answers a file's next GET (a whole answer when none is set). */
type Behaviour = (res: ServerResponse, file: Served, range: number | undefined) => void;

const files = new Map<string, Served>();
const behaviours = new Map<string, Behaviour>();
let server: Scripted;
let version = 0;
const put = (name: string, body: Buffer) =>
  files.set(`/exports/${name}`, { body, etag: `"v${++version}"` });

beforeAll(async () => {
  for (const [name, body] of await exportZips(path.join(work, "export"), sampleTables()))
    put(name, body);
  server = await startScripted((req, res) => {
    const url = new URL(req.url ?? "/", "http://x").pathname;
    const file = files.get(url);
    if (!file) return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1];
    const behaviour = behaviours.get(url);
    if (behaviour) return behaviour(res, file, range === undefined ? undefined : Number(range));
    if (req.headers["if-none-match"] === file.etag) return void res.writeHead(304).end();
    res.writeHead(200, { etag: file.etag, "content-length": String(file.body.length) });
    res.end(file.body);
  });
}, 120_000);
afterAll(async () => server?.close());

const pull = (env: Record<string, string> = {}, ...extra: string[]) =>
  runCoverage(
    [
      "data",
      "pull",
      "medicare",
      "--source",
      `${server.url}/exports/`,
      // --codes (a test's own): the code files are fetched; else --no-codes.
      ...(extra.includes("--codes")
        ? extra.filter((a) => a !== "--codes")
        : ["--no-codes", ...extra]),
    ],
    { env: { XDG_DATA_HOME: dataHome, COVERAGE_RETRY_BASE_MS: "5", NO_COLOR: "1", ...env } },
  );

/** Every file of the data folder: name, size and modification time (what "as it was" means). */
const folderState = (dir = folder) => listFolder(dir);

/** Waits until the pull's staging copy of `name` holds `bytes` (the client has them). */
async function clientHas(name: string, bytes: number): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    for (const entry of readdirSync(folder).filter((e) => e.endsWith(".part"))) {
      try {
        if (statSync(path.join(folder, entry, name)).size >= bytes) return;
      } catch {
        // not made yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs a pull with a behaviour for one file, then checks the folder is as it was. */
async function failedPull(
  name: string,
  behaviour: Behaviour,
  env: Record<string, string>,
  ...extra: string[]
) {
  const before = folderState();
  const saved = files.get(`/exports/${name}`)!;
  // A new version (another ETag), never served whole.
  put(name, Buffer.from(saved.body));
  behaviours.set(`/exports/${name}`, behaviour);
  try {
    const r = await pull(env, ...extra);
    expect(folderState(), r.stderr).toEqual(before);
    return r;
  } finally {
    behaviours.delete(`/exports/${name}`);
    files.set(`/exports/${name}`, saved);
  }
}

describe.skipIf(!SQLITE)("coverage data pull medicare and a server that never finishes", () => {
  it("pulls a first snapshot (the one every failure below must leave as it was)", async () => {
    const r = await pull();
    expect(r.exitCode, r.stderr).toBe(0);
  });

  // One byte every 100 ms: the idle timer never fires.
  const trickle: Behaviour = (res, file) => {
    res.writeHead(200, { etag: file.etag, "content-length": String(file.body.length) });
    let at = 0;
    const next = () => {
      if (res.destroyed || at >= file.body.length) return void res.end();
      res.write(file.body.subarray(at, ++at));
      setTimeout(next, 100);
    };
    next();
  };

  it("gives up a trickling download at its deadline, naming the file and --deadline", async () => {
    // 2 s is the whole file's deadline.
    const r = await failedPull("ncd.zip", trickle, {}, "--deadline", "2");
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /ncd\.zip: the download of http:\/\/127\.0\.0\.1:\d+\/exports\/ncd\.zip passed its deadline of 2 s \(set with --deadline or COVERAGE_PULL_DEADLINE\) with \d+ B of [\d.]+ K?B in/,
    );
    expect(r.stderr).toContain("--deadline SECONDS (or COVERAGE_PULL_DEADLINE)");
  });

  it("gives up a trickling code page at its deadline too", async () => {
    const before = folderState();
    files.set("/page", {
      body: Buffer.from(`<html>${"<p>x</p>".repeat(100)}</html>`),
      etag: '"p"',
    });
    behaviours.set("/page", trickle);
    try {
      const r = await pull(
        { COVERAGE_PULL_DEADLINE: "1" },
        "--codes",
        "--icd10cm-url",
        `${server.url}/page`,
      );
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /the ICD-10-CM page: the download of .*\/page passed its deadline of 1 s/,
      );
      expect(folderState()).toEqual(before);
    } finally {
      behaviours.delete("/page");
    }
  });

  it("gives up a silent server at the stall limit (COVERAGE_PULL_STALL_TIMEOUT), after retries", async () => {
    // Half the file, then nothing, the connection held open.
    const silent: Behaviour = (res, file) => {
      res.writeHead(200, { etag: file.etag, "content-length": String(file.body.length) });
      res.write(file.body.subarray(0, file.body.length >> 1));
    };
    const r = await failedPull("current_lcd.zip", silent, { COVERAGE_PULL_STALL_TIMEOUT: "1" });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /current_lcd\.zip: no byte came for 1 s \(the stall limit\) after \d+ bytes; resuming/,
    );
    expect(r.stderr).toMatch(
      /current_lcd\.zip: no byte came from http:\/\/127\.0\.0\.1:\d+\/exports\/current_lcd\.zip for 1 s \(the stall limit\), after [\d.]+ KB of [\d.]+ KB and 3 retries/,
    );
    expect(r.stderr).toContain("--stall-timeout SECONDS (or COVERAGE_PULL_STALL_TIMEOUT)");
  });

  it("refuses a resumed answer of another version (ETag not the If-Range sent) and fetches it whole", async () => {
    const name = "current_article.zip";
    const url = `/exports/${name}`;
    const original = files.get(url)!.body;
    put(name, Buffer.from(original));
    const first = files.get(url)!;
    // What the server has by the time the client resumes: another zip (one entry more).
    const changed = await zipOf([...(await unzipOf(original)), ["README.txt", Buffer.from("v2")]]);
    const later: Served = { body: changed, etag: `"v${++version}"` };
    const gets: Array<string | undefined> = [];
    behaviours.set(url, (res, _file, range) => {
      gets.push(range === undefined ? undefined : String(range));
      const headers = (s: Served) => ({ etag: s.etag, "accept-ranges": "bytes" });
      if (gets.length === 1) {
        // Half, then the connection dropped once the client has it.
        const half = first.body.length >> 1;
        res.writeHead(200, { ...headers(first), "content-length": String(first.body.length) });
        res.write(
          first.body.subarray(0, half),
          () => void clientHas(name, half).finally(() => res.socket?.destroy()),
        );
      } else if (range !== undefined) {
        // A server that ignores If-Range: the rest of the new version, spliced if accepted.
        const rest = later.body.subarray(range);
        res.writeHead(206, {
          ...headers(later),
          "content-length": String(rest.length),
          "content-range": `bytes ${range}-${later.body.length - 1}/${later.body.length}`,
        });
        res.end(rest);
      } else {
        res.writeHead(200, { ...headers(later), "content-length": String(later.body.length) });
        res.end(later.body);
      }
    });
    try {
      const r = await pull();
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /current_article\.zip: the server resumed with another version of the file \("v\d+", not "v\d+"\); fetching it whole/,
      );
      expect(gets).toHaveLength(3);
      expect(gets[1]).toBeDefined();
      expect(gets[2]).toBeUndefined();
      const kept = readFileSync(path.join(folder, "medicare.sources", name));
      expect(kept.equals(later.body)).toBe(true);
    } finally {
      behaviours.delete(url);
      files.set(url, later);
    }
  });

  it.each([
    ["a climbing entry name", "../../x.csv", /holds an entry named '\.\.\/\.\.\/x\.csv'/],
    ["a symbolic link", "lcd.csv", /holds 'lcd\.csv', a symbolic link/],
  ])("refuses a pulled zip with %s: exit 2 naming it, nothing changed", async (_, entry, says) => {
    const name = "current_lcd.zip";
    const entries = await unzipOf(files.get(`/exports/${name}`)!.body);
    let body: Buffer;
    if (entry.startsWith("..")) {
      // yazl refuses such a name: written under one of the same length, then renamed in place.
      body = await zipOf([...entries, ["aa/aa/x.csv", Buffer.from("a,b\n1,2\n")]]);
      body = Buffer.from(body.toString("latin1").replaceAll("aa/aa/x.csv", entry), "latin1");
    } else {
      const zip = new yazl.ZipFile();
      for (const [n, data] of entries) zip.addBuffer(data, n);
      zip.addBuffer(Buffer.from("/etc/passwd"), entry, { mode: 0o120777 });
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
    }
    const before = folderState();
    const saved = files.get(`/exports/${name}`)!;
    put(name, body);
    try {
      const r = await pull();
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
      expect(r.stderr).not.toMatch(/cut short|try again later/i);
      expect(folderState()).toEqual(before);
      // The same zip given to `data import mcd`: the same refusal.
      const zipFile = path.join(work, `bad-${entry.length}.zip`);
      writeFileSync(zipFile, body);
      const imported = await runCoverage([
        "data",
        "import",
        "mcd",
        zipFile,
        "-o",
        path.join(work, "bad.db"),
      ]);
      expect(imported.exitCode, imported.stderr).toBe(2);
      expect(imported.stderr).toMatch(says);
      expect(readdirSync(work).filter((f) => f.includes("bad.db"))).toEqual([]);
    } finally {
      files.set(`/exports/${name}`, saved);
    }
  });

  it("refuses a limit that is not a number of seconds (exit 2)", async () => {
    const r = await pull({}, "--stall-timeout", "soon");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--stall-timeout soon: not a number of seconds/);
  });
});
