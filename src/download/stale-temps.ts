import { lstat, readdir, rm, unlink } from "node:fs/promises";
import path from "node:path";

/** A temporary file untouched this long is stale whatever its pid says (a pid reused, another host). */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
/** A dead owner's file untouched this long is stale: a download still running writes more often. */
export const DEAD_OWNER_AFTER_MS = 60 * 1000;

/** `.NAME.<pid>-<random>.part`: the temporary file of a download of NAME by process `pid`. */
export function formatTempName(target: string, pid: number, suffix: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${pid}-${suffix}.part`);
}

/** Whether a process with this id exists here (EPERM: it does, owned by someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Removes the temporary files that downloads of `target` left beside it when they could not
 * clean up (SIGKILL, a power cut): ours by name, and either untouched for a day or owned by a
 * process that is gone and untouched for a minute. Best effort: nothing here fails a download.
 */
export async function removeStaleTemps(
  target: string,
  now = Date.now(),
  isAlive: (pid: number) => boolean = isProcessAlive,
  /** Temporary folders too (a pull's staging folder), removed with what they hold. */
  folders = false,
): Promise<string[]> {
  const dir = path.dirname(target);
  const ours = new RegExp(
    `^\\.${escapeRegExp(path.basename(target))}\\.(\\d+)-[0-9a-f]{12}\\.part$`,
  );
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(ours.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid) continue;
    const file = path.join(dir, name);
    try {
      const info = await lstat(file);
      const folder = folders && info.isDirectory();
      if (!info.isFile() && !folder) continue;
      const idle = now - info.mtimeMs;
      if (idle > STALE_AFTER_MS || (idle > DEAD_OWNER_AFTER_MS && !isAlive(pid))) {
        await (folder ? rm(file, { recursive: true }) : unlink(file));
        removed.push(file);
      }
    } catch {
      // Gone meanwhile, or not ours to remove: leave it.
    }
  }
  return removed;
}
