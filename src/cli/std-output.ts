import { fstatSync, statSync, writeSync } from "node:fs";

type Callback = (err?: Error | null) => void;

// POSIX's least PIPE_BUF, and Linux's: the bytes a pipe takes at once, never fewer.
const PIPE_BUF = 4096;

/**
 * What `fd` is, for writing to it: `direct`, a file or /dev/null, where write(2) never waits on
 * anyone; `deferred`, a pipe or a socket, which is no terminal, but whose reader may stop
 * reading (so past the first PIPE_BUF bytes only Node's stream, which queues and keeps the
 * event loop, signals included, running, writes there); `stream` for the rest (terminals first of all).
 */
function classifyOutput(fd: number): "direct" | "deferred" | "stream" {
  if (process.platform === "win32") return "stream";
  try {
    const out = fstatSync(fd);
    if (out.isFile()) return "direct";
    if (out.isFIFO() || out.isSocket()) return "deferred";
    // Terminals are character devices too: only /dev/null among them.
    if (out.isCharacterDevice() && out.rdev === statSync("/dev/null").rdev) return "direct";
  } catch {
    // Not open at all: Node's own stream says what it says.
  }
  return "stream";
}

/**
 * Standard output or error (`fd` 1 or 2) for a run, made by `open` (process.stdout or stderr)
 * only when something needs it: setting one up loads Node's streams (node:net too, for a pipe),
 * 1.5-2.6 ms each of a one-shot command that may never write there. Whether it is a terminal
 * and how wide it is are answered without it. On a file or /dev/null, writes go to the
 * descriptor with write(2) at once; anything else (events, pipe(), end(), a write that fails)
 * goes to the real stream, which from then on takes every write, so nothing is reordered.
 */
export function createOutput(fd: 1 | 2, open: () => NodeJS.WriteStream): NodeJS.WritableStream {
  const kind = classifyOutput(fd);
  if (kind === "stream") return open();
  let real: NodeJS.WriteStream | undefined;
  let pipeBudget = PIPE_BUF;
  const stream = (): NodeJS.WriteStream => (real ??= open());
  const write = (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | Callback,
    callback?: Callback,
  ): boolean => {
    const cb = typeof encoding === "function" ? encoding : callback;
    const enc = typeof encoding === "string" ? encoding : undefined;
    if (real) return stream().write(chunk, enc ?? "utf8", cb);
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, enc) : chunk;
    if (kind === "deferred") {
      // A fresh pipe takes PIPE_BUF bytes before its reader reads any, so write(2) does not
      // wait on the reader for the first ones: a one-shot answer (the main job's table is
      // ~3 KB) needs no stream, whose set-up (node:net) was ~4% of the main job into a pipe
      // on Node 22.
      if (bytes.length > pipeBudget) return stream().write(bytes, cb);
      pipeBudget -= bytes.length;
    }
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch {
      // A full disk, a pipe's reader gone (EPIPE) or a non-blocking pipe that is full (EAGAIN):
      // the stream writes the rest, or reports the error as it always did.
      return stream().write(bytes.subarray(done), cb);
    }
    if (cb) process.nextTick(cb);
    return true;
  };
  return new Proxy({} as NodeJS.WritableStream, {
    get(_, key) {
      if (key === "write") return write;
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
