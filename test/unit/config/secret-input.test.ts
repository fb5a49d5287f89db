import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readSecret } from "../../../src/config/secret-input.js";
import { createProgress } from "../../../src/download/progress.js";

/** A stand-in for a terminal's stdin: raw mode recorded, keystrokes pushed by the test. */
function fakeTty() {
  const stream = new PassThrough() as PassThrough & {
    isTTY: boolean;
    rawModes: boolean[];
    setRawMode(mode: boolean): void;
  };
  stream.isTTY = true;
  stream.rawModes = [];
  stream.setRawMode = (mode: boolean) => void stream.rawModes.push(mode);
  return stream;
}

function sink() {
  let text = "";
  const stream = new PassThrough();
  stream.on("data", (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

describe("readSecret", () => {
  it("piped stdin: everything that arrives", async () => {
    const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
    const err = sink();
    const p = readSecret({
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: err.stream,
      prompt: "Key: ",
      signal: new AbortController().signal,
    });
    stdin.end("piped-key\n");
    expect(await p).toBe("piped-key\n");
    expect(err.text()).toBe("");
  });

  it.each([
    { keys: ["sec", "ret\r"], value: "secret" },
    { keys: ["abcx\u007f", "d\n"], value: "abcd" },
    { keys: ["\u001b[200~pasted-key\u001b[201~", "\r"], value: "pasted-key" },
    { keys: ["a\u0001b\r"], value: "ab" },
    { keys: ["k\u0004"], value: "k" },
  ])("TTY: hidden prompt, keys $keys -> $value", async ({ keys, value }) => {
    const stdin = fakeTty();
    const err = sink();
    const p = readSecret({
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: err.stream,
      prompt: "Key: ",
      signal: new AbortController().signal,
    });
    for (const k of keys) stdin.write(k);
    expect(await p).toBe(value);
    // Nothing typed is echoed: only the prompt and the final line break.
    expect(err.text()).toBe("Key: \n");
    expect(stdin.rawModes).toEqual([true, false]);
  });

  it.each(["ctrl-c", "abort"])(
    "TTY: %s cancels with exit 130 and restores the terminal",
    async (how) => {
      const stdin = fakeTty();
      const ctrl = new AbortController();
      const p = readSecret({
        stdin: stdin as unknown as NodeJS.ReadStream,
        stderr: sink().stream,
        prompt: "Key: ",
        signal: ctrl.signal,
      });
      stdin.write("par");
      if (how === "abort") ctrl.abort();
      else stdin.write("\u0003");
      await expect(p).rejects.toMatchObject({ exitCode: 130 });
      expect(stdin.rawModes).toEqual([true, false]);
    },
  );
});

describe("createProgress", () => {
  it.each([
    { tty: false, quiet: false, shown: false },
    { tty: true, quiet: true, shown: false },
    { tty: true, quiet: false, shown: true },
  ])("stderr TTY $tty, quiet $quiet -> shown $shown", async ({ tty, quiet, shown }) => {
    const progress = await createProgress({ stderr: sink().stream, stderrIsTTY: tty }, quiet);
    expect(progress !== undefined).toBe(shown);
  });
});
