import { createReadStream, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";

/**
 * A named pipe in a fresh folder, with a reader already waiting on it (a writer's open would
 * otherwise block): `received` settles with every byte once the writer closes.
 */
export async function makeFifoReader(): Promise<{
  dir: string;
  fifo: string;
  received: Promise<Buffer>;
}> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-fifo-"));
  const fifo = path.join(dir, "pipe");
  await execa("mkfifo", [fifo]);
  const chunks: Buffer[] = [];
  const received = new Promise<Buffer>((resolve, reject) =>
    createReadStream(fifo)
      .on("data", (c) => chunks.push(c as Buffer))
      .on("end", () => resolve(Buffer.concat(chunks)))
      .on("error", reject),
  );
  return { dir, fifo, received };
}
