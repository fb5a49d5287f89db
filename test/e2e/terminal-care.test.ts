import { lstatSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { runCoverage } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { makeFifoReader } from "../helpers/fifo.js";
import { envelope, json, startScripted } from "../helpers/server.js";
import { onTty, withStderrOnTty } from "../helpers/tty.js";

// Issue 19, item 5: what a person at a terminal sees (the CLI under `script`, a real pty).

/** An API that answers every call after `ms` (an empty page). */
async function slowApi(t: TestContext, ms: number) {
  const s = await startScripted((_req, res) => {
    setTimeout(() => json(res, 200, envelope([], 20, 0, false)), ms);
  });
  t.onTestFinished(() => s.close());
  return s;
}

describe.concurrent("a spinner while an API call is pending", () => {
  it("shows on a terminal's stderr when the answer is slow; stdout holds only the data", async (t) => {
    const s = await slowApi(t, 1500);
    const r = await withStderrOnTty(["--api-url", s.url, "search", "--json"], {
      COVERAGE_API_KEY: "k-1919",
    });
    expect(r.exitCode, r.terminal).toBe(0);
    expect(r.terminal).toContain(`Waiting for 127.0.0.1:${s.port}: POST /v1/policies/filter`);
    expect(JSON.parse(r.stdout)).toEqual(envelope([], 20, 0, false));
  });

  it("never on a pipe, nor with --quiet on a terminal", async (t) => {
    const s = await slowApi(t, 800);
    const env = { COVERAGE_API_KEY: "k-1919" };
    const [piped, quiet] = await Promise.all([
      runInProcess(["--api-url", s.url, "search", "--json"], { env }),
      withStderrOnTty(["-q", "--api-url", s.url, "search", "--json"], env),
    ]);
    expect(piped.exitCode, piped.stderr).toBe(0);
    // The empty answer is said on stderr off a terminal (cli.md, "Nothing fails silently"); no spinner.
    expect(piped.stderr).toBe("No policies match.");
    expect(quiet.exitCode).toBe(0);
    expect(quiet.terminal).not.toContain("Waiting for");
  });
});

describe.concurrent("criteria text on a terminal", () => {
  it.each([50, 72])("wraps at word boundaries to %i columns, list items hanging", async (cols) => {
    const r = await onTty(["-q", "policy", "cms-ncd/240.4/2008-03-13"], { COLUMNS: String(cols) });
    expect(r.exitCode, r.stdout).toBe(0);
    const criteria = r.stdout.slice(r.stdout.indexOf("\nCriteria\n"));
    const lines = criteria.split("\n");
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(cols);
    // The long item keeps every word whole, its continuation under its text.
    const at = lines.findIndex((l) => l.includes("AHI/RDI of 5 to 14"));
    expect(lines[at + 1]).toMatch(/^ {4,5}[a-z(]/);
    const item = [lines[at], lines[at + 1], lines[at + 2]].map((l) => l!.trim()).join(" ");
    expect(item).toContain("AHI/RDI of 5 to 14 with symptoms (daytime sleepiness, insomnia,");
  });
});

/** An API whose one policy's PDF trickles in: 10 pieces of 4000 bytes, 150 ms apart. */
async function tricklingFile(t: TestContext) {
  const s = await startScripted((req, res) => {
    if (req.url?.startsWith("/v1/policies/")) {
      const url = `http://127.0.0.1:${s.port}/files/slow.pdf`;
      return json(res, 200, { url, content_type: "application/pdf", filename: "SLOW.pdf" });
    }
    res.writeHead(200, { "content-type": "application/pdf", "content-length": "40000" });
    let sent = 0;
    const timer = setInterval(() => {
      res.write(Buffer.alloc(4000, 37));
      if (++sent === 10) {
        clearInterval(timer);
        res.end();
      }
    }, 150);
    res.on("close", () => clearInterval(timer));
  });
  t.onTestFinished(() => s.close());
  return s;
}

describe.concurrent("download progress on a terminal", () => {
  it("shows the percent, the speed and the time left on stderr", async (t) => {
    const s = await tricklingFile(t);
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-dl-"));
    const file = path.join(dir, "slow.pdf");
    const r = await withStderrOnTty(
      ["--api-url", s.url, "download", "x/slow/2026-01-01", "-o", file],
      {
        COVERAGE_API_KEY: "k-1919",
      },
    );
    expect(r.exitCode, r.terminal).toBe(0);
    expect(readFileSync(file).length).toBe(40000);
    expect(r.terminal).toMatch(
      /Downloading slow\.pdf: [\d.]+ KB of 39\.1 KB \(\d+%\), [\d.]+ (?:KB|MB)\/s, \d+ s left/,
    );
  });
});

describe.concurrent("download -o - on a terminal", () => {
  // The bundled data: cms-ncd/90.2/2020-01-27 is a PDF, its --text version markdown.
  it("refuses to write a binary file to the terminal (exit 2), unless --force", async () => {
    const [refused, forced, text] = await Promise.all([
      onTty(["-q", "download", "cms-ncd/90.2/2020-01-27", "-o", "-"]),
      onTty(["-q", "download", "cms-ncd/90.2/2020-01-27", "-o", "-", "--force"]),
      onTty(["-q", "download", "cms-ncd/90.2/2020-01-27", "-o", "-", "--text"]),
    ]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toContain(
      "refusing to write a binary file (application/pdf) to the terminal",
    );
    expect(refused.stdout).not.toContain("%PDF");
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain("%PDF-");
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^# /m);
  });

  it("-o /dev/tty is the terminal too: refused without --force", async () => {
    const r = await onTty(["-q", "download", "cms-ncd/90.2/2020-01-27", "-o", "/dev/tty"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain("refusing to write a binary file (application/pdf) to the terminal");
    expect(r.stdout).not.toContain("%PDF");
  });

  it("a pipe still gets the bytes without --force", async () => {
    const r = await runCoverage(["-q", "download", "cms-ncd/90.2/2020-01-27", "-o", "-"], {
      encoding: "buffer",
    });
    expect(r.exitCode).toBe(0);
    expect(
      Buffer.from(r.stdout as unknown as Uint8Array)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });
});

describe.concurrent("download -o naming a device or a FIFO", () => {
  it("-o /dev/null is written directly, the device left as it was", async () => {
    const before = lstatSync("/dev/null");
    const r = await runInProcess(["-q", "download", "cms-ncd/90.2/2020-01-27", "-o", "/dev/null"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const after = lstatSync("/dev/null");
    expect(after.isCharacterDevice()).toBe(true);
    expect(after.ino).toBe(before.ino);
    expect(readdirSync("/dev").filter((n) => n.endsWith(".part"))).toEqual([]);
  });

  it("a FIFO gets the bytes, even with --force, and stays a FIFO", async () => {
    const { dir, fifo, received } = await makeFifoReader();
    const r = await runInProcess([
      "-q",
      "download",
      "cms-ncd/90.2/2020-01-27",
      "-o",
      fifo,
      "--force",
    ]);
    const bytes = await received;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(["pipe"]);
  });

  it("a local write error is reported as one: exit 2, the path and the OS error", async () => {
    // /dev/full refuses every write with ENOSPC. (Never with --force here: before the fix, a
    // root run replaced the device.)
    const r = await runInProcess(["-q", "download", "cms-ncd/90.2/2020-01-27", "-o", "/dev/full"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot write \/dev\/full: no space left on device \(ENOSPC\)$/m,
    );
    expect(r.stderr).not.toMatch(/cut off/);
    expect(lstatSync("/dev/full").isCharacterDevice()).toBe(true);
  });
});
