import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { resolveDataDir, SNAPSHOT_EXTENSION } from "../dataset/data-dir.js";
import type { SnapshotEntry } from "../snapshot/entry.js";
import { readManifest } from "./manifest.js";

/** What the snapshot says of itself (needs node:sqlite; on an older Node.js, nothing). */
async function describe(file: string): Promise<{ as_of: string | null; source: string }> {
  try {
    const { describeDataset } = await import("../snapshot/info.js");
    const info = await describeDataset(file);
    return { as_of: info.as_of, source: info.source };
  } catch {
    return { as_of: null, source: "" };
  }
}

/** The snapshots of the user's data folder (`NAME.db`), by name, with their manifests' facts. */
export async function listSnapshots(
  env: NodeJS.ProcessEnv,
): Promise<{ dir: string; snapshots: SnapshotEntry[] }> {
  const dir = await resolveDataDir(env);
  const names = await readdir(dir).catch(() => [] as string[]);
  const snapshots: SnapshotEntry[] = [];
  for (const base of names.sort()) {
    if (base.startsWith(".") || !base.endsWith(SNAPSHOT_EXTENSION)) continue;
    const file = path.join(dir, base);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const name = base.slice(0, -SNAPSHOT_EXTENSION.length);
    const manifest = await readManifest(path.join(dir, `${name}.manifest.json`));
    const own = await describe(file);
    snapshots.push({
      name,
      file,
      as_of: own.as_of ?? manifest?.as_of ?? null,
      size_bytes: info.size,
      pulled_at: manifest?.pulled_at ?? info.mtime.toISOString(),
      source: manifest?.source ?? own.source,
    });
  }
  return { dir, snapshots };
}
