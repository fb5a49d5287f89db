import { fstatSync, statSync, writeSync } from "node:fs";

type Callback = (err?: Error | null) => void;

/** True when `fd` is a file, a pipe, a socket or /dev/null: somewhere write(2) just writes. */
function isPlainOutput(fd: number): boolean {
  if (process.platform === "win32") return false;
  try {
    const out = fstatSync(fd);
    if (out.isFile() || out.isFIFO() || out.isSocket()) return true;
    // Terminals are character devices too: only /dev/null among them.
    return out.isCharacterDevice() && out.rdev === statSync("/dev/null").rdev;
  } catch {
    return false; // not open at all: Node's own stream says what it says
  }
}

/**
 * Standard output or error (`fd` 1 or 2) for a run. On a file, a pipe, a socket or /dev/null,
 * text goes to the descriptor with write(2) at once: setting up process.stdout or stderr loads
 * Node's streams (node:net too, for a pipe), 1.5-2.6 ms each of a one-shot command that never
 * needed them. Anything else asked of it (events, pipe(), end()...) is the real stream's, made
 * by `open`, which from then on takes every write, so nothing is reordered. A write that fails
 * (a full non-blocking pipe, a reader gone, a full disk) is handed to the real stream as well,
 * which does about it what it always did.
 */
export function createOutput(fd: 1 | 2, open: () => NodeJS.WriteStream): NodeJS.WritableStream {
  if (!isPlainOutput(fd)) return open();
  let real: NodeJS.WriteStream | undefined;
  const stream = (): NodeJS.WriteStream => (real ??= open());
  const write = (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | Callback,
    callback?: Callback,
  ): boolean => {
    const cb = typeof encoding === "function" ? encoding : callback;
    const enc = typeof encoding === "string" ? encoding : undefined;
    if (real) return real.write(chunk, enc ?? "utf8", cb);
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, enc) : chunk;
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch {
      return stream().write(bytes.subarray(done), cb);
    }
    if (cb) process.nextTick(cb);
    return true;
  };
  return new Proxy({} as NodeJS.WritableStream, {
    get(_, key) {
      if (key === "write") return write;
      // What a caller asks to tell a terminal from the rest: the answer needs no stream.
      if (!real && key === "isTTY") return false;
      if (!real && key === "columns") return undefined;
      const target = stream();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as () => unknown).bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(stream(), key, value),
    has: (_, key) => Reflect.has(stream(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(stream()),
  });
}
