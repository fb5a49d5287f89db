/** A function computing zlib's CRC-32 of bytes (a string is taken as its UTF-8 bytes). */
type Crc32 = (data: Uint8Array | string) => number;

/**
 * zlib's CRC-32. Loading node:zlib (and node:stream under it) for it was ~2 ms of every start;
 * its native binding is what that module calls, so it is asked directly. process.binding is a
 * pending deprecation: when those warnings are on, the module is loaded instead, as it would
 * print one. The binding is gone in some future Node: then the module too.
 */
export const crc32: Crc32 = (() => {
  const env = process.env;
  const pending =
    process.execArgv.includes("--pending-deprecation") ||
    /(^|\s)--pending-deprecation(\s|$)/.test(env.NODE_OPTIONS ?? "") ||
    env.NODE_PENDING_DEPRECATION === "1";
  try {
    const binding = pending
      ? undefined
      : (process as unknown as { binding(name: string): { crc32?: unknown } }).binding("zlib");
    const native = binding?.crc32;
    if (typeof native === "function")
      return (data: Uint8Array | string) =>
        (native as (d: typeof data, v: number) => number)(data, 0) >>> 0;
  } catch {
    // No such binding here: the module below.
  }
  return (process.getBuiltinModule("node:zlib") as typeof import("node:zlib")).crc32;
})();
