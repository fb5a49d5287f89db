import { mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { UsageError, UnexpectedError } from "../../../src/errors.js";
import { writeFileAtomically, writeToDevice } from "../../../src/download/save-file.js";
import { resolveTarget } from "../../../src/download/target.js";

const signal = new AbortController().signal;
const dir = () => mkdtempSync(path.join(os.tmpdir(), "coverage-werr-"));

function cutStream(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push("abc");
      } else this.destroy(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
    },
  });
}

describe("write errors are the machine's (exit 2), a cut transfer is the network's (exit 1)", () => {
  it.each<[string, () => Promise<unknown>, typeof UsageError | typeof UnexpectedError, RegExp]>([
    [
      "a device that refuses writes (/dev/full)",
      () => writeToDevice(Readable.from(["abc"]), "/dev/full", { signal }),
      UsageError,
      /^cannot write \/dev\/full: no space left on device \(ENOSPC\)$/,
    ],
    [
      "a temporary file that cannot be created",
      () =>
        writeFileAtomically(Readable.from(["abc"]), path.join(dir(), "gone", "x.pdf"), {
          force: false,
          signal,
        }),
      UsageError,
      /^cannot write .*x\.pdf: the folder .*gone does not exist$/,
    ],
    [
      "a connection reset mid-file",
      () => writeFileAtomically(cutStream(), path.join(dir(), "x.pdf"), { force: false, signal }),
      UnexpectedError,
      /^the download was cut off after 3 bytes \(ECONNRESET\)$/,
    ],
    [
      "a connection reset mid-file, into a device",
      () => writeToDevice(cutStream(), "/dev/null", { signal }),
      UnexpectedError,
      /cut off/,
    ],
  ])("%s", async (_name, run, type, message) => {
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(type);
    expect((err as Error).message).toMatch(message);
  });

  it("leaves nothing behind after a write error", async () => {
    const d = dir();
    await expect(
      writeFileAtomically(cutStream(), path.join(d, "x.pdf"), { force: false, signal }),
    ).rejects.toThrow();
    expect(readdirSync(d)).toEqual([]);
  });
});

describe("resolveTarget: devices and FIFOs are written in place", () => {
  it.each([
    ["/dev/null", { kind: "device", path: "/dev/null" }],
    ["/dev/full", { kind: "device", path: "/dev/full" }],
  ])("%s", async (output, target) => {
    expect(await resolveTarget(output, "x.pdf", "/")).toEqual(target);
  });
});
