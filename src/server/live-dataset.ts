import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { LoadedDataset } from "../dataset/load.js";
import { openDataset } from "../dataset/open.js";

/**
 * What identifies the file's content without reading it: its inode, size and modification
 * time (a replaced file, a rewritten one) and, for SQLite, the header's change counter, which
 * every commit moves (two commits within the file system's clock tick look alike otherwise).
 * Undefined when the file cannot be read (removed: the open one is served on).
 */
function stampOf(file: string): string | undefined {
  let fd: number | undefined;
  try {
    const s = statSync(file, { bigint: true });
    const header = Buffer.alloc(28);
    fd = openSync(file, "r");
    const n = readSync(fd, header, 0, header.length, 0);
    const counter = n === header.length ? header.readUInt32BE(24) : -1;
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${counter}`;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A served dataset and how to get it as its file now is. */
export interface LiveDataset {
  /** The dataset as opened last. */
  readonly dataset: LoadedDataset;
  /**
   * The dataset as the file is now: opened again when another process changed or replaced the
   * file since, so no answer comes from a cache of data that is gone (a filter's list naming a
   * version whose detail is 404). One reopening at a time; a failed one is tried again next call.
   */
  current(): Promise<LoadedDataset>;
}

/** Opens `file` (a JSON dataset or a snapshot) for a server that runs while the file may change. */
export async function openLiveDataset(file: string): Promise<LiveDataset> {
  let stamp = stampOf(file);
  let dataset = await openDataset(file);
  let reopening: Promise<LoadedDataset> | undefined;
  const reopen = async (next: string): Promise<LoadedDataset> => {
    try {
      dataset = await openDataset(file);
      stamp = next;
      return dataset;
    } finally {
      reopening = undefined;
    }
  };
  return {
    get dataset() {
      return dataset;
    },
    current() {
      if (reopening) return reopening;
      const now = stampOf(file);
      if (now === undefined || now === stamp) return Promise.resolve(dataset);
      return (reopening = reopen(now));
    },
  };
}
