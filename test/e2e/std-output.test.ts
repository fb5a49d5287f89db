import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, cleanEnv, runCoverage } from "../helpers/cli.js";

// src/cli/std-output.ts writes a file or /dev/null with write(2) and leaves pipes to Node's
// stream, made only when first needed. These hold what that must not change.

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const clean of cleanups.splice(0)) clean();
});

/** The writing end of a FIFO whose reader is open but never reads (it fills, then blocks). */
async function stalledPipe(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-stall-"));
  const fifo = path.join(dir, "pipe");
  await execa("mkfifo", [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, "w");
  cleanups.push(() => {
    closeSync(reader);
    rmSync(dir, { recursive: true, force: true });
  });
  return writer;
}

function track(child: ChildProcess): ChildProcess {
  cleanups.push(() => child.kill("SIGKILL"));
  return child;
}

const exitOf = (child: ChildProcess) =>
  new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("exit", (code, signal) => resolve([code, signal])),
  );

describe("standard output and error", () => {
  it("a file gets the same bytes as a pipe, stdout and stderr in the order written", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-std-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // The CLI with stdout and stderr both on one file: its exit code and what the file got.
    const runToFile = async (args: string[]) => {
      const file = path.join(dir, "out.txt");
      const fd = openSync(file, "w");
      const child = spawn(process.execPath, [BIN, ...args], {
        stdio: ["ignore", fd, fd],
        env: cleanEnv(),
      });
      closeSync(fd);
      const [code] = await exitOf(child);
      return { code, text: readFileSync(file, "utf8") };
    };
    for (const args of [
      ["--local", "search", "--code", "CPT:97110", "--json"],
      ["--local", "search", "--all", "--format", "ndjson"],
      ["--local", "search", "sleep", "apnea"],
    ]) {
      const piped = await runCoverage(args);
      // The data, then (a page of more) the line saying the answer is partial.
      const said = piped.stderr ? `${piped.stderr}\n` : "";
      expect(await runToFile(args)).toEqual({ code: 0, text: `${piped.stdout}\n${said}` });
    }
    // A usage error then: the message, on stderr, reaches the shared file as it reaches a pipe.
    const bad = ["--local", "search", "--state", "ZZ"];
    const piped = await runCoverage(bad);
    expect(piped.stderr).toMatch(/^error: invalid request/);
    expect(await runToFile(bad)).toEqual({ code: 2, text: piped.stderr + "\n" });
  });

  it("Ctrl-C while stdout's reader has stopped reading still exits 130", async () => {
    const writer = await stalledPipe();
    // Over 64 KiB (a pipe's buffer) of lines, so the run waits on its reader.
    const child = track(
      spawn(process.execPath, [BIN, "--local", "search", "--all", "--format", "ndjson"], {
        stdio: ["ignore", writer, "ignore"],
        env: cleanEnv(),
      }),
    );
    closeSync(writer);
    const exited = exitOf(child);
    // Waiting on the pipe: in write(2) or in the event loop, either way no longer starting.
    await expect
      .poll(() => readFileSync(`/proc/${child.pid}/wchan`, "utf8"), { timeout: 15_000 })
      .toMatch(/pipe_write|poll|wait/);
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGINT");
    const timeout = new Promise((r) => setTimeout(() => r("still running"), 10_000));
    expect(await Promise.race([exited, timeout])).toEqual([130, null]);
  });

  it("serve keeps answering when nobody reads its stderr (the access log)", async () => {
    const writer = await stalledPipe();
    const child = track(
      spawn(process.execPath, [BIN, "serve", "--port", "0"], {
        stdio: ["ignore", "pipe", writer],
        env: cleanEnv(),
      }),
    );
    closeSync(writer);
    const url = await new Promise<string>((resolve) =>
      child.stdout!.once("data", (d: Buffer) => resolve(String(d).trim())),
    );
    // Keep-alive: no socket closes (a close would set the stream up by the way).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => agent.destroy());
    // ~400 log lines of over 200 bytes: several times a pipe's 64 KiB.
    for (let i = 0; i < 400; i++)
      await new Promise<void>((resolve, reject) => {
        const req = http.get(
          `${url}/health?pad=${"x".repeat(200)}`,
          { agent, timeout: 5000 },
          (res) => res.resume().on("end", resolve),
        );
        req.on("timeout", () => req.destroy(new Error(`request ${i} timed out`)));
        req.on("error", reject);
      });
  });
});
