import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, RULES_DATA, runCoverage } from "../helpers/cli.js";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "coverage-dl-sig-"));
const PDF = readFileSync(path.join(path.dirname(RULES_DATA), "files", "pt.pdf"));
const SIGNAL_AT = path.join(ROOT, "test", "helpers", "signal-at.cjs");

/** A local-engine download with Ctrl-C sent at one exact point (see signal-at.cjs). */
function downloadInterruptedAt(at: string, cwd: string, extra: string[] = [], signal = "SIGINT") {
  return runCoverage(["--data", RULES_DATA, "download", "a/pt/2025-01-01", ...extra], {
    cwd,
    env: {
      NODE_OPTIONS: `--require ${SIGNAL_AT}`,
      COVERAGE_TEST_SIGNAL_AT: at,
      COVERAGE_TEST_SIGNAL: signal,
    },
  });
}

describe("Ctrl-C at the end of a download: the exit code says what is on disk", () => {
  it.each([{ extra: [] }, { extra: ["--force"] }])(
    "after the file is in place ($extra): exit 0, the file complete, a line saying so",
    async ({ extra }) => {
      const cwd = tempDir();
      const r = await downloadInterruptedAt("after-commit", cwd, extra);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readdirSync(cwd)).toEqual(["PT-100.pdf"]);
      expect(readFileSync(path.join(cwd, "PT-100.pdf")).equals(PDF)).toBe(true);
      expect(r.stderr).toContain(
        `warning: interrupted after the download had finished: ${path.join(cwd, "PT-100.pdf")} is complete (${PDF.length} bytes)`,
      );
    },
  );

  it.each([
    { signal: "SIGTERM", exit: 143 },
    { signal: "SIGHUP", exit: 129 },
  ])(
    "$signal: before the file is in place exit $exit and nothing left; after it exit 0",
    async ({ signal, exit }) => {
      const before = tempDir();
      const r = await downloadInterruptedAt("before-commit", before, [], signal);
      expect(r.exitCode, r.stderr).toBe(exit);
      expect(r.stderr).toContain(`download stopped by ${signal}; no partial file was left`);
      expect(readdirSync(before)).toEqual([]);
      const after = tempDir();
      const done = await downloadInterruptedAt("after-commit", after, [], signal);
      expect(done.exitCode, done.stderr).toBe(0);
      expect(done.stderr).toContain("interrupted after the download had finished");
      expect(readFileSync(path.join(after, "PT-100.pdf")).equals(PDF)).toBe(true);
    },
  );

  it("after the last byte but before the file is put in place: exit 130, nothing left", async () => {
    const cwd = tempDir();
    const r = await downloadInterruptedAt("before-commit", cwd);
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain("download interrupted; nothing was saved");
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("an API whose file host cuts off or stalls", () => {
  let server: Server;
  let base = "";
  const ENV = { COVERAGE_API_KEY: "k", COVERAGE_RETRY_BASE_MS: "1" };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const m = /^\/v1\/policies\/s\/(\w+)\/2026-01-01\/download-url$/.exec(url.pathname);
      if (m) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            url: `${base}/files/${m[1]}?signature=abc`,
            content_type: "application/pdf",
            filename: "F.pdf",
          }),
        );
      }
      if (url.pathname === "/files/cut") {
        // 2048 bytes of a promised 100,000, then the connection closes.
        res.writeHead(200, { "content-type": "application/pdf", "content-length": "100000" });
        return void res.write(Buffer.alloc(2048, 65), () => res.socket?.destroy());
      }
      if (url.pathname === "/files/stall") {
        // The first bytes, then nothing: the client is killed meanwhile.
        res.writeHead(200, { "content-type": "application/pdf", "content-length": "1000000" });
        return void res.write(Buffer.alloc(4096, 1));
      }
      if (url.pathname === "/files/ok") {
        res.writeHead(200, { "content-type": "application/pdf", "content-length": "9" });
        return res.end("%PDF-ok\n\n");
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const start = (args: string[], cwd: string) =>
    runCoverage(["--api-url", base, "download", ...args], { cwd, env: ENV });

  it("-o - cut off after bytes went out: says how many, not that nothing was saved (exit 1)", async () => {
    const r = await start(["s/cut/2026-01-01", "-o", "-"], tempDir());
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toBe("A".repeat(2048));
    expect(r.stderr).toContain("the download was cut off after 2048 bytes had gone to stdout");
    expect(r.stderr).toContain("The output is incomplete");
    expect(r.stderr).not.toContain("Nothing was saved");
  });

  it("the temporary file a SIGKILL leaves is removed by the next download to the same place", async () => {
    const cwd = tempDir();
    const child = start(["s/stall/2026-01-01", "-o", "F.pdf"], cwd);
    const part = () => readdirSync(cwd).find((f) => f.endsWith(".part"));
    await waitFor("the temporary file", () => part() !== undefined);
    expect(part()).toBe(`.F.pdf.${child.pid}-${part()!.slice(-17, -5)}.part`);
    child.kill("SIGKILL");
    await child;
    const left = part()!;
    expect(readdirSync(cwd)).toEqual([left]);
    // Untouched for two minutes, as after a crash some time ago (a fresh one is spared: its
    // owner may be a download on another machine sharing the folder).
    const past = new Date(Date.now() - 120_000);
    utimesSync(path.join(cwd, left), past, past);

    const next = await start(["s/ok/2026-01-01", "-o", "F.pdf"], cwd);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual(["F.pdf"]);
  });

  it("keeps temporary files of running downloads, recent ones, and files not named as ours", async () => {
    const cwd = tempDir();
    const old = new Date(Date.now() - 120_000);
    const dead = deadPid();
    const files = {
      // Owned by a live process (this one) and recent: a download in progress.
      running: `.F.pdf.${process.pid}-aaaaaaaaaaaa.part`,
      // Live owner but two minutes idle: still spared (only a day of silence overrides a pid).
      runningIdle: `.F.pdf.${process.ppid}-bbbbbbbbbbbb.part`,
      // Dead owner but written just now: spared for a minute.
      deadFresh: `.F.pdf.${dead}-cccccccccccc.part`,
      // Not our pattern, or another target's.
      other: ".F.pdf.part",
      otherTarget: `.G.pdf.${dead}-dddddddddddd.part`,
      // Dead owner, idle: removed.
      stale: `.F.pdf.${dead}-eeeeeeeeeeee.part`,
    };
    for (const name of Object.values(files)) writeFileSync(path.join(cwd, name), "x");
    for (const name of [files.runningIdle, files.otherTarget, files.stale, files.other])
      utimesSync(path.join(cwd, name), old, old);
    const r = await start(["s/ok/2026-01-01", "-o", "F.pdf"], cwd);
    expect(r.exitCode, r.stderr).toBe(0);
    const { stale, ...kept } = files;
    expect(readdirSync(cwd).sort()).toEqual(["F.pdf", ...Object.values(kept)].sort());
    expect(readdirSync(cwd)).not.toContain(stale);
  });
});

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(execFileSync("node", ["-p", "process.pid"], { encoding: "utf8" }).trim());
}

/** Polls a condition (no timing assertion: it only bounds how long we wait). */
async function waitFor(what: string, check: () => boolean, limitMs = 15_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("Ctrl-C during a download on a terminal", () => {
  it("clears the progress line before the message (newcomer finding: the line left on screen)", async () => {
    const { withStderrOnTty } = await import("../helpers/tty.js");
    const cwd = tempDir();
    const out = path.join(cwd, "x.pdf");
    const r = await withStderrOnTty(
      ["--data", RULES_DATA, "download", "a/pt/2025-01-01", "-o", out],
      {
        NODE_OPTIONS: `--require ${SIGNAL_AT}`,
        COVERAGE_TEST_SIGNAL_AT: "before-commit",
        COVERAGE_TEST_SIGNAL: "SIGINT",
      },
    );
    expect(r.exitCode, r.terminal).toBe(130);
    const shown = r.terminal.lastIndexOf("Downloading x.pdf");
    expect(shown, r.terminal).toBeGreaterThan(-1);
    const after = r.terminal.slice(shown);
    // The line is erased (cursor to column 1, then erase to its end) before the error.
    const esc = String.fromCharCode(27);
    const erased = after.indexOf(`${esc}[1G${esc}[0K`);
    const error = after.indexOf("download interrupted; nothing was saved");
    expect(erased, JSON.stringify(after)).toBeGreaterThan(-1);
    expect(error).toBeGreaterThan(erased);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
