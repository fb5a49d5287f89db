// `coverage data pull medicare` against a loopback server that plays CMS: the exports, the
// ICD-10 and HCPCS pages and their zips, built in the test from the sample export's tables.
// One story over one data folder: a first pull, a conditional one, a change, failures that
// must leave the folder as it was, and pulls that recover.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCoverage } from "../helpers/cli.js";
import { withStderrOnTty } from "../helpers/tty.js";
import {
  cmsContent,
  HCPCS_PAGE,
  HCPCS_ZIP,
  hcpcsPage,
  ICD10_ZIP,
  exportZips,
  pullArgsFor,
  startCms,
  unzipOf,
  zipOf,
  type CmsServer,
} from "../helpers/cms-server.js";
import { sampleTables } from "../helpers/mcd-sample.js";
import { folderState as filesUnder } from "../helpers/folder-state.js";
import { SQLITE } from "../helpers/snapshot.js";

const KEY = "pull-test-key-0123456789";
const work = mkdtempSync(path.join(os.tmpdir(), "coverage-pull-"));
const dataHome = path.join(work, "data-home");
const folder = path.join(dataHome, "coverage");
let cms: CmsServer;

const env = () => ({
  XDG_DATA_HOME: dataHome,
  COVERAGE_RETRY_BASE_MS: "5",
  COVERAGE_API_KEY: KEY,
  NO_COLOR: "1",
});
const pullArgs = (...extra: string[]) => pullArgsFor(cms.url, ...extra);
const pull = (...extra: string[]) => runCoverage(pullArgs(...extra), { env: env() });
const cli = (args: string[]) => runCoverage(args, { env: env(), cwd: work });

/** Every file of the data folder: name, size and modification time (what "as it was" means). */
const folderState = (dir = folder) => filesUnder(dir);

/** The staging folders (`*.part`) in the data folder now. */
const stagingFolders = () => new Set(readdirSync(folder).filter((e) => e.endsWith(".part")));
// Staging folders there before the pull under test: another pull's, never this one's.
let stagingBefore = new Set<string>();

/**
 * Waits until the pull's staging copy of `file` holds `sent` bytes, so the server drops the
 * connection only once the client has them: the resume point is then exact. Only a staging
 * folder the pull under test made counts (set `stagingBefore` before it starts): a stale one
 * holding a whole copy would let the server drop before the client has a byte. Gives up after
 * 60 s (a loaded machine is slow, never that slow) and says so, so a failure names its cause.
 */
async function clientHas(file: string, sent: number): Promise<void> {
  const name = path.basename(file);
  let seen = -1;
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    for (const entry of readdirSync(folder)) {
      if (!entry.endsWith(".part") || stagingBefore.has(entry)) continue;
      try {
        seen = statSync(path.join(folder, entry, name)).size;
        if (seen >= sent) return;
      } catch {
        // not made yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  console.error(`clientHas: ${name} never reached ${sent} bytes (last seen ${seen}); dropping`);
}

/** Tables of the sample export with one LCD more (a made-up row), for a changed catalogue. */
function tablesWithNewLcd() {
  const tables = sampleTables();
  const lcd = tables["lcd.csv"]!;
  const contractors = tables["lcd_x_contractor.csv"]!;
  const rows = [...lcd()];
  const first = rows.find((r) => r.status === "A" && !r.display_id?.startsWith("DL"))!;
  const added = { ...first, lcd_id: "39999", title: "Made-up LCD added by the pull test" };
  const links = [...contractors()];
  const link = links.find((r) => r.lcd_id === first.lcd_id)!;
  return {
    ...tables,
    "lcd.csv": () => [...rows, added],
    "lcd_x_contractor.csv": () => [...links, { ...link, lcd_id: "39999" }],
  };
}

async function putExports(tables: ReturnType<typeof sampleTables>, sub: string): Promise<void> {
  for (const [name, body] of await exportZips(path.join(work, sub), tables))
    cms.put(`/exports/${name}`, body);
}

beforeAll(async () => {
  cms = await startCms(await cmsContent(path.join(work, "export"), sampleTables()));
}, 120_000);
afterAll(async () => cms?.close());

describe.skipIf(!SQLITE)("coverage data pull medicare", () => {
  it("pulls the exports and the code files found on the pages into medicare.db, answering as `data import mcd` does", async () => {
    const r = await pull();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    // Off a TTY: one line per file, then the import's summary.
    for (const name of [
      "ncd.zip",
      "current_lcd.zip",
      "current_article.zip",
      "icd10cm.zip",
      "hcpcs.zip",
    ])
      expect(r.stderr).toMatch(
        new RegExp(`^${name.replace(".", "\\.")}: [\\d.]+ (B|KB|MB) in `, "m"),
      );
    expect(r.stderr).toContain("imported 4 LCDs, 3 articles, 3 NCDs");
    // The newest links of the pages, not the older or look-alike ones.
    expect(cms.gets(ICD10_ZIP)).toHaveLength(1);
    expect(cms.gets(HCPCS_ZIP)).toHaveLength(1);
    // Nothing beside the snapshot but its text, its sources and its manifest.
    expect(readdirSync(folder).sort()).toEqual([
      "medicare.db",
      "medicare.files",
      "medicare.manifest.json",
      "medicare.sources",
    ]);
    expect(readdirSync(path.join(folder, "medicare.sources")).sort()).toEqual([
      "current_article.zip",
      "current_lcd.zip",
      "hcpcs.zip",
      "icd10cm.zip",
      "ncd.zip",
    ]);
    const manifest = JSON.parse(readFileSync(path.join(folder, "medicare.manifest.json"), "utf8"));
    const ncd = manifest.files.find((f: { name: string }) => f.name === "ncd.zip");
    expect(ncd).toMatchObject({
      url: `${cms.url}/exports/ncd.zip`,
      etag: cms.files.get("/exports/ncd.zip")!.etag,
      last_modified: cms.files.get("/exports/ncd.zip")!.lastModified,
      size: cms.files.get("/exports/ncd.zip")!.body.length,
    });
    expect(ncd.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.files.find((f: { name: string }) => f.name === "hcpcs.zip").page).toBe(
      `${cms.url}${HCPCS_PAGE}`,
    );

    // The same files through `data import mcd`: the same answers.
    const files = path.join(work, "same");
    const paths: string[] = [];
    for (const name of ["ncd.zip", "current_lcd.zip", "current_article.zip"]) {
      const file = path.join(work, `same-${name}`);
      writeFileSync(file, cms.files.get(`/exports/${name}`)!.body);
      paths.push(file);
    }
    writeFileSync(path.join(work, "icd.zip"), cms.files.get(ICD10_ZIP)!.body);
    writeFileSync(path.join(work, "hcpcs.zip"), cms.files.get(HCPCS_ZIP)!.body);
    const imported = await cli([
      "data",
      "import",
      "mcd",
      ...paths,
      "-o",
      `${files}.db`,
      "--icd10cm",
      path.join(work, "icd.zip"),
      "--hcpcs",
      path.join(work, "hcpcs.zip"),
    ]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    for (const args of [
      ["search", "--json", "--limit", "100"],
      ["search", "--code", "HCPCS:L1833", "--json"],
      ["search", "--code", "ICD10CM:E11.9", "--format", "csv"],
      ["code", "HCPCS:A4253", "--json"],
      ["policy", "cms-lcd/L39001/2024-06-01", "--json"],
    ]) {
      const a = await cli(["--data", "medicare", ...args]);
      const b = await cli(["--data", `${files}.db`, ...args]);
      expect(a.exitCode, a.stderr).toBe(0);
      expect(a.stdout, args.join(" ")).toBe(b.stdout);
    }
    // The key never reaches CMS, whatever the environment holds.
    for (const req of cms.requests) {
      expect(req.headers["x-api-key"]).toBeUndefined();
      expect(JSON.stringify(req.headers)).not.toContain(KEY);
    }
  });

  it("lists the snapshot, and `data info medicare` describes it", async () => {
    const list = await cli(["data", "list", "--json"]);
    expect(list.exitCode, list.stderr).toBe(0);
    const [entry] = JSON.parse(list.stdout);
    expect(entry).toMatchObject({
      name: "medicare",
      file: path.join(folder, "medicare.db"),
      source: `${cms.url}/exports/`,
    });
    expect(entry.as_of).toMatch(/^\d{4}-\d\d-\d\d$/);
    const table = await cli(["data", "list"]);
    expect(table.stdout).toMatch(/^NAME\s+AS OF\s+SIZE\s+PULLED\s+SOURCE/m);
    const info = await cli(["data", "info", "medicare", "--json"]);
    expect(info.exitCode, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ as_of: entry.as_of, versions: 10 });
  });

  it("asks whether anything changed and rewrites nothing when nothing did", async () => {
    const before = folderState();
    // Not even a temporary file comes and goes: the folder itself is untouched.
    const folderTime = statSync(folder).mtimeMs;
    const seen = cms.requests.length;
    const r = await pull();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(statSync(folder).mtimeMs).toBe(folderTime);
    expect(r.stderr).toMatch(/^Medicare catalogue already current \(as of \d{4}-\d\d-\d\d\)$/m);
    expect(r.stderr).not.toContain("imported");
    expect(folderState()).toEqual(before);
    const asked = cms.requests.slice(seen).filter((q) => q.url.endsWith(".zip"));
    expect(asked).toHaveLength(5);
    for (const q of asked) {
      const file = cms.files.get(new URL(q.url, "http://x").pathname)!;
      expect(q.headers["if-none-match"]).toBe(file.etag);
      expect(q.headers["if-modified-since"]).toBe(file.lastModified);
    }
  });

  it("after a change, imports again and says what changed in the catalogue", async () => {
    await putExports(tablesWithNewLcd(), "export-2");
    const r = await pull();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^icd10cm\.zip: not changed since the last pull$/m);
    expect(r.stderr).toContain("imported 5 LCDs");
    expect(r.stderr).toMatch(
      /Changes since the last pull: 1 documents added, 0 revised, 0 retired; code links: \d+ gained, 0 lost/,
    );
    const found = await cli(["--data", "medicare", "search", "--json", "--limit", "100"]);
    const ids = JSON.parse(found.stdout).data.map((p: { policy_id: string }) => p.policy_id);
    expect(ids).toHaveLength(11);
    expect(ids).toContain("cms-lcd/L39999/2024-06-01");
  });

  it.each([
    [
      "a broken zip",
      () => {
        const body = cms.files.get("/exports/current_article.zip")!.body;
        cms.put("/exports/current_article.zip", body.subarray(0, body.length - 200));
      },
      1,
      /current_article\.zip from .* is not a whole zip/,
    ],
    [
      "a 404",
      () => cms.missing.add("/exports/ncd.zip"),
      4,
      /ncd\.zip: GET .*\/exports\/ncd\.zip answered 404/,
    ],
    [
      "a page without the link",
      () => cms.put(HCPCS_PAGE, Buffer.from("<html><a href='/other.zip'>x</a></html>")),
      1,
      new RegExp(
        `no link to the HCPCS Level II alpha-numeric file on .*${HCPCS_PAGE}[\\s\\S]*--hcpcs-url`,
      ),
    ],
  ])(
    "leaves the snapshot and the folder as they were on %s",
    async (_what, breakIt, code, message) => {
      const before = folderState();
      const answer = await cli(["--data", "medicare", "search", "--json", "--limit", "100"]);
      const saved = new Map(cms.files);
      breakIt();
      try {
        const r = await pull();
        expect(r.exitCode, r.stderr).toBe(code);
        expect(r.stderr).toMatch(message);
        expect(folderState()).toEqual(before);
        expect(
          (await cli(["--data", "medicare", "search", "--json", "--limit", "100"])).stdout,
        ).toBe(answer.stdout);
      } finally {
        cms.missing.clear();
        for (const [k, v] of saved) cms.files.set(k, v);
      }
    },
  );

  it("Ctrl-C during a slow download: exit 130, the folder as it was", async () => {
    const before = folderState();
    const body = Buffer.concat([cms.files.get("/exports/ncd.zip")!.body, Buffer.alloc(4_000_000)]);
    const saved = cms.files.get("/exports/ncd.zip")!;
    cms.put("/exports/ncd.zip", body);
    cms.slow.add("/exports/ncd.zip");
    try {
      const child = pull();
      await cms.slowStarted;
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill("SIGINT");
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(130);
      expect(folderState()).toEqual(before);
    } finally {
      cms.slow.clear();
      cms.files.set("/exports/ncd.zip", saved);
    }
  });

  it("retries a dropped connection (no ranges: from the start)", async () => {
    cms.ranges = false;
    try {
      const body = cms.files.get("/exports/current_lcd.zip")!.body;
      cms.put("/exports/current_lcd.zip", Buffer.from(body));
      cms.dropOnce.add("/exports/current_lcd.zip");
      cms.beforeDrop = clientHas;
      stagingBefore = stagingFolders();
      const seen = cms.gets("/exports/current_lcd.zip").length;
      const r = await pull();
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /current_lcd\.zip: the connection dropped after \d+ bytes; resuming/,
      );
      const gets = cms.gets("/exports/current_lcd.zip").slice(seen);
      expect(gets).toHaveLength(2);
      expect(gets[1]!.headers.range, r.stderr).toBeDefined();
      expect(r.stderr).toContain("imported 5 LCDs");
    } finally {
      cms.ranges = true;
      cms.beforeDrop = undefined;
    }
  });

  it("resumes a dropped download with a range request where the server allows", async () => {
    const body = cms.files.get("/exports/current_article.zip")!.body;
    // The server drops once the client's staging file holds half the body (clientHas). Twice
    // in CI (Node 22, 24; never here, loaded or not) the client said it had 0 bytes at the
    // drop, which no code path explains: such a run tests nothing about resuming, so the
    // scenario is set up again (a new version of the file), at most three times in all. A
    // client that never keeps its bytes still fails below.
    let r: Awaited<ReturnType<typeof pull>>;
    let seen: number;
    for (let attempt = 1; ; attempt++) {
      cms.put("/exports/current_article.zip", Buffer.from(body));
      cms.dropOnce.add("/exports/current_article.zip");
      cms.beforeDrop = clientHas;
      stagingBefore = stagingFolders();
      seen = cms.gets("/exports/current_article.zip").length;
      r = await pull().finally(() => (cms.beforeDrop = undefined));
      if (
        attempt === 3 ||
        !/current_article\.zip: the connection dropped after 0 bytes/.test(r.stderr)
      )
        break;
      console.error(
        `resume test, attempt ${attempt}: dropped before the client had a byte\n${r.stderr}`,
      );
    }
    expect(r.exitCode, r.stderr).toBe(0);
    const gets = cms.gets("/exports/current_article.zip").slice(seen);
    expect(gets).toHaveLength(2);
    const half = Math.floor(body.length / 2);
    // The pull's stderr says after how many bytes the connection dropped: what a failure needs.
    expect(gets[1]!.headers.range, r.stderr).toBe(`bytes=${half}-`);
    expect(gets[1]!.headers["if-range"]).toBe(cms.files.get("/exports/current_article.zip")!.etag);
    const manifest = JSON.parse(readFileSync(path.join(folder, "medicare.manifest.json"), "utf8"));
    const { createHash } = await import("node:crypto");
    expect(
      manifest.files.find((f: { name: string }) => f.name === "current_article.zip").sha256,
    ).toBe(createHash("sha256").update(body).digest("hex"));
    expect(r.stderr).toContain("Changes since the last pull: none");
  });

  it("--data NAME: a file of that name in the working folder wins; an unknown name is exit 2", async () => {
    const missing = await cli(["--data", "nosuch", "search"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`no snapshot named 'nosuch' in ${folder}`);
    const here = mkdtempSync(path.join(work, "cwd-"));
    writeFileSync(path.join(here, "medicare"), "{}");
    const local = await runCoverage(["--data", "medicare", "search"], { env: env(), cwd: here });
    expect(local.exitCode).toBe(2);
    expect(local.stderr).toMatch(/medicare/);
    expect(local.stderr).not.toContain(folder);
  });

  it("the code-file link on a page: the newest, whatever CMS names it", async () => {
    const newer = "/files/zip/july-2026-alpha-numeric-hcpcs-file-v2.zip";
    cms.put(newer, cms.files.get(HCPCS_ZIP)!.body);
    cms.put(HCPCS_PAGE, Buffer.from(hcpcsPage(newer)));
    const r = await pull("--force");
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cms.gets(newer)).toHaveLength(1);
  });
});

describe.skipIf(!SQLITE)("coverage data pull medicare on a terminal", () => {
  it("draws a bar per file on stderr: bytes, rate, time left; then a line per file", async () => {
    const saved = cms.files.get("/exports/ncd.zip")!;
    // A zip whose bytes take a while at the slow server's pace (an entry the import ignores).
    const { randomBytes } = await import("node:crypto");
    const entries = await unzipOf(saved.body);
    cms.put("/exports/ncd.zip", await zipOf([...entries, ["padding.bin", randomBytes(160_000)]]));
    cms.slow.add("/exports/ncd.zip");
    try {
      const r = await withStderrOnTty(pullArgs(), env());
      expect(r.exitCode, r.terminal).toBe(0);
      expect(r.stdout).toBe("");
      expect(r.terminal).toMatch(
        /ncd\.zip \[#*-*\] [\d.]+ KB of [\d.]+ KB \(\d+%\), [\d.]+ KB\/s, \d+ s left/,
      );
      expect(r.terminal).toMatch(/✔ ncd\.zip: [\d.]+ KB in \d+ s/);
      expect(r.terminal).toMatch(/✔ icd10cm\.zip: not changed since the last pull/);
    } finally {
      cms.slow.clear();
    }
  });
});

describe.skipIf(SQLITE)("coverage data pull medicare on a Node.js without node:sqlite", () => {
  it("is exit 2 naming the Node.js needed, before any download", async () => {
    const seen = cms.requests.length;
    const r = await pull();
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("needs Node.js 22.13 or newer");
    expect(cms.requests.length).toBe(seen);
  });
});
