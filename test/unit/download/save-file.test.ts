import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { RECLAIM_EVERY, type Collect } from "../../../src/download/reclaim.js";
import {
  makeTempName,
  saveDownload,
  writeFileAtomically,
} from "../../../src/download/save-file.js";
import { checkOverwrite, resolveTarget } from "../../../src/download/target.js";

const dir = () => mkdtempSync(path.join(os.tmpdir(), "coverage-save-"));

function failingStream(chunks: string[], error: Error): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i < chunks.length) this.push(chunks[i++]);
      else this.destroy(error);
    },
  });
}

describe("resolveTarget", () => {
  it.each([
    { output: undefined, expected: "CWD/L1.pdf" },
    { output: "", expected: "CWD/L1.pdf" },
    { output: "-", expected: "stdout" },
    { output: "sub", expected: "CWD/sub/L1.pdf" },
    { output: "sub/", expected: "CWD/sub/L1.pdf" },
    { output: "sub/x.pdf", expected: "CWD/sub/x.pdf" },
    { output: "x.pdf", expected: "CWD/x.pdf" },
  ])("-o $output -> $expected", async ({ output, expected }) => {
    const cwd = dir();
    mkdirSync(path.join(cwd, "sub"));
    const t = await resolveTarget(output, "L1.pdf", cwd);
    expect(t.kind === "stdout" ? "stdout" : t.path.replace(cwd, "CWD")).toBe(expected);
  });

  it.each(["nope/", "nope/x.pdf"])("-o %s: the folder must exist (exit 2)", async (output) => {
    await expect(resolveTarget(output, "L1.pdf", dir())).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe("checkOverwrite", () => {
  it.each([
    { exists: "none", force: false, ok: true },
    { exists: "file", force: false, ok: false },
    { exists: "file", force: true, ok: true },
    { exists: "dir", force: true, ok: false },
  ])("$exists, force $force -> ok $ok", async ({ exists, force, ok }) => {
    const d = dir();
    const target = path.join(d, "t.pdf");
    if (exists === "file") writeFileSync(target, "x");
    if (exists === "dir") mkdirSync(target);
    const p = checkOverwrite(target, force);
    if (ok) await expect(p).resolves.toBeUndefined();
    else await expect(p).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe("writeFileAtomically", () => {
  const signal = new AbortController().signal;

  it("names the temporary file .NAME.<pid>-<random>.part beside the target", () => {
    expect(path.basename(makeTempName("/a/b/L1.pdf"))).toMatch(
      new RegExp(`^\\.L1\\.pdf\\.${process.pid}-[0-9a-f]{12}\\.part$`),
    );
    expect(path.dirname(makeTempName("/a/b/L1.pdf"))).toBe("/a/b");
    expect(makeTempName("/a/L1.pdf")).not.toBe(makeTempName("/a/L1.pdf"));
  });

  it("writes the whole stream and leaves only the target", async () => {
    const d = dir();
    const target = path.join(d, "out.pdf");
    const bytes = await writeFileAtomically(Readable.from(["ab", "cd"]), target, {
      force: false,
      signal,
    });
    expect(bytes).toBe(4);
    expect(readFileSync(target, "utf8")).toBe("abcd");
    expect(readdirSync(d)).toEqual(["out.pdf"]);
  });

  it.each([{ force: false }, { force: true }])(
    "a stream failing midway leaves no file and keeps an existing one (force $force)",
    async ({ force }) => {
      const d = dir();
      const target = path.join(d, "out.pdf");
      if (force) writeFileSync(target, "old");
      const p = writeFileAtomically(failingStream(["part"], new Error("socket hang up")), target, {
        force,
        signal,
      });
      await expect(p).rejects.toMatchObject({ exitCode: 1 });
      expect(readdirSync(d)).toEqual(force ? ["out.pdf"] : []);
      if (force) expect(readFileSync(target, "utf8")).toBe("old");
    },
  );

  it("frees spent read buffers: one minor collection per RECLAIM_EVERY bytes received", async () => {
    const calls: unknown[] = [];
    const collect: Collect = (o) => void calls.push(o);
    const size = 2.5 * RECLAIM_EVERY;
    const chunks = Array.from({ length: size / (64 * 1024) }, () => Buffer.alloc(64 * 1024));
    const bytes = await writeFileAtomically(Readable.from(chunks), path.join(dir(), "o.pdf"), {
      force: false,
      signal,
      collector: () => collect,
    });
    expect(bytes).toBe(size);
    expect(calls).toEqual([
      { type: "minor", execution: "sync" },
      { type: "minor", execution: "sync" },
    ]);
  });

  it("a short stream (fewer bytes than announced) is a failure, nothing kept", async () => {
    const d = dir();
    const p = writeFileAtomically(Readable.from(["abc"]), path.join(d, "out.pdf"), {
      force: false,
      signal,
      expectedSize: 10,
    });
    await expect(p).rejects.toThrow("3 of 10 bytes");
    expect(readdirSync(d)).toEqual([]);
  });

  it("an abort is an interruption (exit 130) and removes the temporary file", async () => {
    const d = dir();
    const ctrl = new AbortController();
    const endless = new Readable({
      read() {
        setTimeout(() => this.push("x"), 5);
      },
    });
    const p = writeFileAtomically(endless, path.join(d, "out.pdf"), {
      force: false,
      signal: ctrl.signal,
      onBytes: () => ctrl.abort(),
    });
    await expect(p).rejects.toMatchObject({ exitCode: 130 });
    expect(readdirSync(d)).toEqual([]);
  });

  it("without force, a file that appeared meanwhile is not replaced (exit 2)", async () => {
    const d = dir();
    const target = path.join(d, "out.pdf");
    const source = new Readable({
      read() {
        // The target shows up while we stream.
        writeFileSync(target, "theirs");
        this.push("mine");
        this.push(null);
      },
    });
    await expect(
      writeFileAtomically(source, target, { force: false, signal }),
    ).rejects.toMatchObject({
      exitCode: 2,
    });
    expect(readFileSync(target, "utf8")).toBe("theirs");
    expect(readdirSync(d)).toEqual(["out.pdf"]);
  });
});

describe("saveDownload to stdout (-o -)", () => {
  it("passes the bytes through and frees spent read buffers every RECLAIM_EVERY bytes", async () => {
    const d = dir();
    const file = path.join(d, "big.pdf");
    const size = 2.5 * RECLAIM_EVERY;
    writeFileSync(file, Buffer.alloc(size, 7));
    let calls = 0;
    let received = 0;
    const stdout = new Writable({
      write(chunk: Buffer, _enc, done) {
        received += chunk.length;
        done();
      },
    });
    const saved = await saveDownload(
      { url: pathToFileURL(file).href, filename: "big.pdf", content_type: "application/pdf" },
      {
        output: "-",
        force: false,
        cwd: d,
        signal: new AbortController().signal,
        timeoutMs: 5000,
        env: {},
        stdout,
        collector: () => () => void calls++,
      },
    );
    expect(saved).toEqual({ path: undefined, bytes: size });
    expect(received).toBe(size);
    expect(calls).toBe(2);
  });
});
