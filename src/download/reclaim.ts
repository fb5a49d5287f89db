// Node gives every socket read a fresh 64 KiB buffer, and V8 frees those buffers only under
// external-memory pressure, about every 64 MB. A large download therefore faults in ~100 MB of
// new pages, and each write to the file copies from memory that is not in cache. A young-
// generation collection every few MiB frees the spent buffers at once, so the allocator hands
// the same warm memory back: on the 200 MB bench the transfer is ~20% faster and the peak RSS
// drops by a third (README, Performance > Download).
import v8 from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Bytes received between two collections (four 1 MiB socket reads, src/download/large-reads.ts).
 * On the 200 MB bench, 16 rounds: every 2 MiB 309 ms and 72 MB, 4 MiB 265 ms and 76 MB, 8 MiB
 * 259 ms and 82 MB, 16 MiB 273 ms and 93 MB (README, Performance > Download).
 */
export const RECLAIM_EVERY = 4 * 1024 * 1024;

/** V8's `gc` as the `--expose-gc` flag defines it. */
export type Collect = (options: { type: "minor"; execution: "sync" }) => void;
let collect: Collect | null | undefined;

/**
 * V8's `gc` function, taken from a fresh context once (as jest's leak detector does): the flag
 * is set back at once, so this process's own global never gets a `gc`. The context costs
 * ~9 ms, so it is made only when a transfer reaches its first interval.
 */
export function exposeCollector(): Collect | null {
  if (collect !== undefined) return collect;
  try {
    v8.setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as Collect;
  } catch {
    // A runtime without the flag (or with a different `gc`) keeps V8's own schedule.
    collect = null;
  } finally {
    v8.setFlagsFromString("--no-expose-gc");
  }
  return collect;
}

/**
 * Returns a callback to call with the running byte count of a transfer: it runs a minor
 * collection each time another `every` bytes have arrived.
 */
export function reclaimReadBuffers(
  every = RECLAIM_EVERY,
  getCollector: (() => Collect | null) | undefined = exposeCollector,
): (bytes: number) => void {
  let next = every;
  return (bytes) => {
    if (bytes < next) return;
    next = bytes + every;
    getCollector()?.({ type: "minor", execution: "sync" });
  };
}
