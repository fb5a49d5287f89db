import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { streamDataset } from "../../src/dataset/stream.js";
import { hasSqlite } from "../../src/snapshot/sqlite.js";
import { openSnapshotWriter } from "../../src/snapshot/writer.js";

/** Whether this Node.js can run the snapshot tests (node:sqlite, Node.js 22.13+). */
export const SQLITE = hasSqlite();

/** Compiles a JSON dataset into a snapshot in a fresh temporary folder (or at `out`). */
export async function buildSnapshot(json: string, out?: string): Promise<string> {
  const file =
    out ??
    path.join(
      mkdtempSync(path.join(os.tmpdir(), "coverage-snapshot-")),
      path.basename(json, ".json") + ".db",
    );
  const sink = await openSnapshotWriter(file, { force: true });
  try {
    const head = await streamDataset(json, sink);
    await sink.finish({ ...head, source: path.basename(json) });
  } catch (err) {
    await sink.abort();
    throw err;
  }
  return file;
}
