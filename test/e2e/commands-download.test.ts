import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES_DATA, runCoverage } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { closedPort } from "../helpers/server.js";

const KEY = "test-key-0123456789";
/** 5 MiB of letters (text, so `-o -` can be compared as a string), no two runs alike. */
const BIG = Buffer.from(
  Array.from({ length: 5 * 1024 * 1024 }, () => 97 + Math.floor(Math.random() * 26)),
);
const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "coverage-dl-"));

/** Polls a condition (no timing assertion: it only bounds how long we wait). */
async function waitFor(what: string, check: () => boolean, limitMs = 15_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("coverage download, local engine (file:// links)", () => {
  // Files written and bytes on stdout: a process of its own. The rules about flags, names and
  // exit codes: in the test's own process (test/helpers/run-cli.ts).
  const run = (args: string[], cwd: string) =>
    runCoverage(["--data", RULES_DATA, "download", ...args], { cwd });
  const runHere = (args: string[], cwd: string) =>
    runInProcess(["--data", RULES_DATA, "download", ...args], { cwd });

  it("saves the display file under the link's safe name in the current folder", async () => {
    const cwd = tempDir();
    const r = await run(["a/pt/2025-01-01"], cwd);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(readdirSync(cwd)).toEqual(["PT-100.pdf"]);
    expect(readFileSync(path.join(cwd, "PT-100.pdf"))).toEqual(
      readFileSync(path.join(path.dirname(RULES_DATA), "files", "pt.pdf")),
    );
  });

  it("off a TTY, stderr still says where the file went; --quiet silences it (finding 27)", async () => {
    const cwd = tempDir();
    const r = await runInProcess(["--data", RULES_DATA, "download", "a/pt/2025-01-01"], { cwd });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Saved (.*)PT-100\.pdf \([\d.]+ [KM]?B\)$/m);
    const quiet = await runInProcess(
      ["--data", RULES_DATA, "-q", "download", "a/pt/2025-01-01", "-o", "again.pdf"],
      { cwd },
    );
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(readdirSync(cwd).sort()).toEqual(["PT-100.pdf", "again.pdf"]);
  });

  it("--text saves the markdown version", async () => {
    const cwd = tempDir();
    expect((await run(["a/pt/2025-01-01", "--text"], cwd)).exitCode).toBe(0);
    expect(readdirSync(cwd)).toEqual(["PT-100.md"]);
  });

  it("-o - writes the bytes to stdout", async () => {
    const r = await run(["a/pt/2025-01-01", "--text", "-o", "-"], tempDir());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      readFileSync(path.join(path.dirname(RULES_DATA), "files", "pt.md"), "utf8").replace(
        /\n$/,
        "",
      ),
    );
  });

  it.each([
    { output: "sub", expected: "sub/PT-100.pdf" },
    { output: "sub/", expected: "sub/PT-100.pdf" },
    { output: "sub/mine.pdf", expected: "sub/mine.pdf" },
    { output: "named.bin", expected: "named.bin" },
  ])("-o $output saves $expected", async ({ output, expected }) => {
    const cwd = tempDir();
    mkdirSync(path.join(cwd, "sub"));
    const r = await run(["a/pt/2025-01-01", "-o", output], cwd);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(path.join(cwd, expected), "utf8")).toContain("%PDF");
  });

  it("-o into a folder that does not exist: exit 2", async () => {
    const r = await runHere(["a/pt/2025-01-01", "-o", "missing/x.pdf"], tempDir());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("does not exist");
  });

  it("never clobbers an existing file without --force (exit 2 naming --force); --force replaces it", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "PT-100.pdf"), "mine");
    const r = await runHere(["a/pt/2025-01-01"], cwd);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("already exists");
    expect(r.stderr).toContain("--force");
    expect(readFileSync(path.join(cwd, "PT-100.pdf"), "utf8")).toBe("mine");
    expect(readdirSync(cwd)).toEqual(["PT-100.pdf"]);
    const forced = await runHere(["a/pt/2025-01-01", "--force"], cwd);
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(path.join(cwd, "PT-100.pdf"), "utf8")).toContain("%PDF");
    expect(readdirSync(cwd)).toEqual(["PT-100.pdf"]);
  });

  it("--url-only prints the link object and saves nothing", async () => {
    const cwd = tempDir();
    const r = await runHere(["a/pt/2025-01-01", "--url-only"], cwd);
    expect(r.exitCode).toBe(0);
    const link = JSON.parse(r.stdout);
    expect(link).toMatchObject({ content_type: "application/pdf", filename: "PT-100.pdf" });
    expect(link.url).toMatch(/^file:\/\/.*\/files\/pt\.pdf$/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each([
    {
      args: ["a/pt/2025-01-01"],
      url: "http://local/v1/policies/a/pt/2025-01-01/download-url?variant=display",
    },
    {
      args: ["a/pt/2025-01-01", "--text"],
      url: "http://local/v1/policies/a/pt/2025-01-01/download-url?variant=text",
    },
  ])("--dry-run $args", async ({ args, url }) => {
    const cwd = tempDir();
    const r = await runHere([...args, "--dry-run"], cwd);
    expect(JSON.parse(r.stdout)).toEqual({ method: "GET", url, headers: { "x-api-key": "***" } });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each([
    { args: ["nope/x/2020-01-01"], message: "Policy not found" },
    { args: ["cms-ncd/240.4/2008-03-13"], message: "cms-ncd/240.4/2008-03-13 has no stored" },
    { args: ["a/pt/2024-01-01", "--text"], message: "a/pt/2024-01-01 has no stored" },
  ])("$args: exit 4 with '$message', nothing written", async ({ args, message }) => {
    const cwd = tempDir();
    const r = await runHere(args, cwd);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(message);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("a dataset file that names a stored file not on disk", () => {
  // The rules dataset, copied beside no files folder: every stored path points at nothing.
  const dir = tempDir();
  const data = path.join(dir, "dataset.json");
  writeFileSync(data, readFileSync(RULES_DATA));

  it.each([["--url-only"], []])("download %s: 404 no file stored, exit 4", async (...extra) => {
    const cwd = tempDir();
    const r = await runInProcess(["--data", data, "download", "a/pt/2025-01-01", ...extra], {
      cwd,
    });
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("a/pt/2025-01-01 has no stored file");
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("coverage download over HTTP (scripted server on 127.0.0.1)", () => {
  let server: Server;
  let base: string;
  let refusedPort = 0;
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const links: Record<string, { file: string; filename: string }> = {
    "s/ok/2026-01-01": { file: "ok", filename: "OK-1.pdf" },
    "s/evil/2026-01-01": { file: "ok", filename: "../../\u001b[31mevil\u0007name.pdf" },
    "s/slow/2026-01-01": { file: "slow", filename: "SLOW.pdf" },
    "s/cut/2026-01-01": { file: "cut", filename: "CUT.pdf" },
    "s/gone/2026-01-01": { file: "expired", filename: "GONE.pdf" },
    "s/moved/2026-01-01": { file: "moved", filename: "MOVED.pdf" },
    "s/loop/2026-01-01": { file: "loop", filename: "LOOP.pdf" },
    "s/circle/2026-01-01": { file: "circle", filename: "CIRCLE.pdf" },
    "s/refused/2026-01-01": { file: "refused", filename: "REFUSED.pdf" },
    "s/tofile/2026-01-01": { file: "tofile", filename: "TOFILE.pdf" },
    "s/elsewhere/2026-01-01": { file: "elsewhere", filename: "ELSEWHERE.pdf" },
    "s/big/2026-01-01": { file: "big", filename: "BIG.txt" },
    "s/chunked/2026-01-01": { file: "chunked", filename: "CHUNKED.txt" },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      seen.push({ path: url.pathname, headers: req.headers });
      const m = /^\/v1\/policies\/(.+)\/download-url$/.exec(url.pathname);
      if (m) {
        const link = links[decodeURIComponent(m[1] ?? "")];
        if (!link) {
          res.writeHead(404, { "content-type": "application/json" });
          return res.end(JSON.stringify({ detail: "Policy not found" }));
        }
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            url: `${base}/files/${link.file}?signature=abc`,
            content_type: "application/pdf",
            filename: link.filename,
          }),
        );
      }
      if (url.pathname === "/files/ok") {
        res.writeHead(200, { "content-type": "application/pdf", "content-length": "9" });
        return res.end("%PDF-ok\n\n");
      }
      if (url.pathname === "/files/moved") {
        // Storage hosts answer signed links with redirects: two hops, then the bytes.
        const hop = Number(url.searchParams.get("hop") ?? "0");
        const next = hop < 1 ? `/files/moved?hop=${hop + 1}` : "/files/ok?signature=abc";
        res.writeHead(302, { location: `${base}${next}` });
        return res.end();
      }
      if (url.pathname === "/files/elsewhere") {
        // Another origin (storage hosts hand off to a CDN): localhost instead of 127.0.0.1.
        res.writeHead(302, { location: `${base.replace("127.0.0.1", "localhost")}/files/ok` });
        return res.end();
      }
      if (url.pathname === "/files/refused") {
        // To a port where nothing listens: the failure is there, not here.
        res.writeHead(302, { location: `http://127.0.0.1:${refusedPort}/gone.pdf` });
        return res.end();
      }
      if (url.pathname === "/files/tofile") {
        res.writeHead(302, { location: "file:///etc/passwd" });
        return res.end();
      }
      if (url.pathname === "/files/circle") {
        // Back to where it was: a true loop (the same address again), not a long chain.
        res.writeHead(302, { location: `${base}/files/circle` });
        return res.end();
      }
      if (url.pathname === "/files/loop") {
        const hop = Number(url.searchParams.get("hop") ?? "0");
        res.writeHead(302, { location: `${base}/files/loop?hop=${hop + 1}` });
        return res.end();
      }
      if (url.pathname === "/files/big" || url.pathname === "/files/chunked") {
        // Many socket reads, in uneven writes; chunked encoding has no length to go by.
        const sized = url.pathname === "/files/big";
        res.writeHead(200, {
          "content-type": "text/plain",
          ...(sized ? { "content-length": String(BIG.length) } : {}),
        });
        let at = 0;
        const more = (): void => {
          while (at < BIG.length) {
            const next = Math.min(at + 1 + ((at * 7919) % 300_000), BIG.length);
            const ok = res.write(BIG.subarray(at, next));
            at = next;
            if (!ok) return void res.once("drain", more);
          }
          res.end();
        };
        return more();
      }
      if (url.pathname === "/files/slow") {
        // A large file that trickles: the first bytes, then nothing until the client gives up.
        res.writeHead(200, { "content-type": "application/pdf", "content-length": "1000000" });
        return void res.write(Buffer.alloc(4096, 1));
      }
      if (url.pathname === "/files/cut") {
        res.writeHead(200, { "content-type": "application/pdf", "content-length": "100000" });
        res.write(Buffer.alloc(2048, 2), () => setTimeout(() => res.socket?.destroy(), 50));
        return;
      }
      res.writeHead(403, { "content-type": "text/plain" });
      res.end("expired");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const start = (args: string[], cwd: string) =>
    runCoverage(["--api-url", base, "download", ...args], {
      cwd,
      env: { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1" },
    });

  it("streams the file; the API key goes to the API only, never to the download host", async () => {
    const cwd = tempDir();
    seen.length = 0;
    const r = await start(["s/ok/2026-01-01"], cwd);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(path.join(cwd, "OK-1.pdf"), "utf8")).toBe("%PDF-ok\n\n");
    const linkReq = seen.find((s) => s.path.endsWith("/download-url"));
    const fileReq = seen.find((s) => s.path === "/files/ok");
    expect(linkReq?.headers["x-api-key"]).toBe(KEY);
    expect(fileReq).toBeDefined();
    expect(fileReq?.headers["x-api-key"]).toBeUndefined();
    expect(JSON.stringify(fileReq?.headers)).not.toContain(KEY);
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });

  it("--verbose logs the file request too, the link's signature masked", async () => {
    const cwd = tempDir();
    const r = await start(["-v", "s/ok/2026-01-01"], cwd);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/files\/ok\?signature=\*\*\* 200 \d+ ms/,
    );
    expect(r.stderr).not.toContain("signature=abc");
    expect(r.stderr).not.toContain(KEY);
    const size = statSync(path.join(cwd, readdirSync(cwd)[0]!)).size;
    expect(r.stderr).toMatch(
      new RegExp(`received ${size} bytes in \\d+ ms \\(\\d+\\.\\d MiB/s\\)`),
    );
  });

  it.each(["big", "chunked"])(
    "%s: 5 MiB over many reads arrive intact, in a file and on stdout",
    async (name) => {
      const cwd = tempDir();
      const r = await start([`s/${name}/2026-01-01`], cwd);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readFileSync(path.join(cwd, `${name.toUpperCase()}.txt`)).equals(BIG)).toBe(true);
      const out = await start([`s/${name}/2026-01-01`, "-o", "-"], cwd);
      expect(out.exitCode, out.stderr).toBe(0);
      expect(out.stdout.length).toBe(BIG.length);
      expect(out.stdout === BIG.toString("latin1")).toBe(true);
    },
  );

  it("follows the file host's redirects to the bytes", async () => {
    const cwd = tempDir();
    seen.length = 0;
    const r = await start(["s/moved/2026-01-01"], cwd);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(path.join(cwd, "MOVED.pdf"), "utf8")).toBe("%PDF-ok\n\n");
    expect(seen.map((s) => s.path).filter((p) => p.startsWith("/files/"))).toEqual([
      "/files/moved",
      "/files/moved",
      "/files/ok",
    ]);
  });

  it("follows a redirect to another origin", async () => {
    const cwd = tempDir();
    seen.length = 0;
    const r = await start(["s/elsewhere/2026-01-01"], cwd);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(path.join(cwd, "ELSEWHERE.pdf"), "utf8")).toBe("%PDF-ok\n\n");
    const file = seen.find((s) => s.path === "/files/ok");
    expect(file?.headers.host).toMatch(/^localhost:/);
  });

  it("stops after 5 redirects: exit 1, says so, no file", async () => {
    const cwd = tempDir();
    seen.length = 0;
    const r = await start(["s/loop/2026-01-01"], cwd);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("error: the file host redirected more than 5 times (302)");
    expect(seen.filter((s) => s.path === "/files/loop")).toHaveLength(6);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("a redirect back to the same address: exit 1, 'redirects in a loop', no undici wording (findings reliability-2 P1)", async () => {
    const cwd = tempDir();
    const r = await start(["s/circle/2026-01-01"], cwd);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /error: GET http:\/\/127\.0\.0\.1:\d+\/files\/circle\?signature=\*\*\*: the host redirects in a loop/,
    );
    expect(r.stderr).not.toMatch(/cross-origin|Agent|cannot be reached/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("a redirect to a port that refuses names that address, not the link's host (findings reliability-2 P1)", async () => {
    refusedPort = await closedPort();
    const cwd = tempDir();
    const r = await start(["s/refused/2026-01-01"], cwd);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `error: cannot connect to http://127.0.0.1:${refusedPort} (connection refused) for GET http://127.0.0.1:${refusedPort}/gone.pdf (redirected from ${base}/files/refused?signature=***)`,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("a redirect to file:///etc/passwd is refused as not http(s); nothing read", async () => {
    const cwd = tempDir();
    const r = await start(["s/tofile/2026-01-01", "-o", "-"], cwd);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("the host redirected to an address that is not http or https");
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toContain("root:");
  });

  it("asks for a fresh link every time", async () => {
    const cwd = tempDir();
    seen.length = 0;
    await start(["s/ok/2026-01-01", "-o", "a.pdf"], cwd);
    await start(["s/ok/2026-01-01", "-o", "b.pdf"], cwd);
    expect(seen.filter((s) => s.path.endsWith("/download-url"))).toHaveLength(2);
  });

  it("reduces the server's filename to a safe base name in the target folder", async () => {
    const cwd = tempDir();
    const r = await start(["s/evil/2026-01-01"], cwd);
    expect(r.exitCode).toBe(0);
    expect(readdirSync(cwd)).toEqual(["evilname.pdf"]);
  });

  it("Ctrl-C while streaming: exit 130, no partial or temporary file, other files untouched", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "keep.txt"), "keep");
    seen.length = 0;
    const child = start(["s/slow/2026-01-01"], cwd);
    await waitFor("the temporary file", () => readdirSync(cwd).some((f) => f.endsWith(".part")));
    expect(readdirSync(cwd).find((f) => f.endsWith(".part"))).toMatch(
      /^\.SLOW\.pdf\.\d+-[0-9a-f]{12}\.part$/,
    );
    child.kill("SIGINT");
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain("interrupted");
    expect(readdirSync(cwd)).toEqual(["keep.txt"]);
  });

  it.each([
    { signal: "SIGTERM", exit: 143 },
    { signal: "SIGHUP", exit: 129 },
  ] as const)(
    "$signal while streaming: exit $exit, no temporary file, the old file kept",
    async ({ signal, exit }) => {
      const cwd = tempDir();
      writeFileSync(path.join(cwd, "SLOW.pdf"), "previous");
      const child = start(["s/slow/2026-01-01", "--force"], cwd);
      await waitFor("the temporary file", () => readdirSync(cwd).some((f) => f.endsWith(".part")));
      child.kill(signal);
      const r = await child;
      expect(r.exitCode).toBe(exit);
      expect(r.stderr).toContain(`download stopped by ${signal}; no partial file was left`);
      expect(readdirSync(cwd)).toEqual(["SLOW.pdf"]);
      expect(readFileSync(path.join(cwd, "SLOW.pdf"), "utf8")).toBe("previous");
    },
  );

  it("Ctrl-C with --force never clobbers the existing file", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "SLOW.pdf"), "previous");
    const child = start(["s/slow/2026-01-01", "--force"], cwd);
    await waitFor("the temporary file", () => readdirSync(cwd).some((f) => f.endsWith(".part")));
    child.kill("SIGINT");
    expect((await child).exitCode).toBe(130);
    expect(readdirSync(cwd)).toEqual(["SLOW.pdf"]);
    expect(readFileSync(path.join(cwd, "SLOW.pdf"), "utf8")).toBe("previous");
  });

  it.each([{ force: false }, { force: true }])(
    "the server cuts the connection (force: $force): exit 1, no partial file, nothing clobbered",
    async ({ force }) => {
      const cwd = tempDir();
      if (force) writeFileSync(path.join(cwd, "CUT.pdf"), "previous");
      const r = await start(["s/cut/2026-01-01", ...(force ? ["--force"] : [])], cwd);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/cut off|closed/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(cwd)).toEqual(force ? ["CUT.pdf"] : []);
      if (force) expect(readFileSync(path.join(cwd, "CUT.pdf"), "utf8")).toBe("previous");
    },
  );

  it("a refused (expired) link: exit 1, says to run again, signature not printed", async () => {
    const cwd = tempDir();
    const r = await start(["s/gone/2026-01-01"], cwd);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("run the command again".replace("run", "Run"));
    expect(r.stderr).not.toContain("signature=abc");
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("unknown policy on the API: exit 4", async () => {
    const r = await start(["s/none/2026-01-01"], tempDir());
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain("Policy not found");
  });
});

describe("coverage download over https (self-signed certificate on 127.0.0.1)", () => {
  const tls = path.join(import.meta.dirname, "..", "fixtures", "tls");
  let server: HttpsServer;
  let base: string;

  beforeAll(async () => {
    server = createHttpsServer(
      {
        key: readFileSync(path.join(tls, "key.pem")),
        cert: readFileSync(path.join(tls, "cert.pem")),
      },
      (req, res) => {
        if (new URL(req.url ?? "/", "https://x").pathname.endsWith("/download-url")) {
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(
            JSON.stringify({
              url: `${base}/files/big?signature=abc`,
              content_type: "application/pdf",
              filename: "TLS.pdf",
            }),
          );
        }
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(BIG.length) });
        res.end(BIG);
      },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("5 MiB arrive intact; without trusting the certificate it fails clearly", async () => {
    const cwd = tempDir();
    const env = { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1" };
    const trusted = { ...env, NODE_EXTRA_CA_CERTS: path.join(tls, "cert.pem") };
    const r = await runCoverage(["--api-url", base, "download", "s/tls/2026-01-01"], {
      cwd,
      env: trusted,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(path.join(cwd, "TLS.pdf")).equals(BIG)).toBe(true);
    const untrusted = await runCoverage(["--api-url", base, "download", "s/tls/2026-01-01"], {
      cwd: tempDir(),
      env,
    });
    expect(untrusted.exitCode).toBe(1);
    expect(untrusted.stderr).toContain("NODE_EXTRA_CA_CERTS");
    expect(untrusted.stderr).not.toMatch(/\n\s+at /);
  });
});
