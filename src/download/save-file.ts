import { constants, existsSync, writeSync } from "node:fs";
import { type FileHandle, link, open, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { isatty } from "node:tty";
import { addAbortSignal, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DownloadLink } from "../contract/index.js";
import { CliError, InterruptedError, UnexpectedError, UsageError } from "../errors.js";
import { type Collect, RECLAIM_EVERY, reclaimReadBuffers } from "./reclaim.js";
import { safeBaseName } from "./safe-name.js";
import { createTempOutput, tempNameFor } from "../files/temp-output.js";
import { removeStaleTemps } from "./stale-temps.js";
import { openSource } from "./source.js";
import { checkOverwrite, resolveTarget } from "./target.js";

/** Progress callbacks (a TTY spinner, or nothing). */
export interface ProgressSink {
  start(label: string, total: number | undefined): void;
  update(bytes: number): void;
  stop(): void;
}

export interface SaveOptions {
  /** `-o`: a file, a folder, `-` for stdout; default the link's name in `cwd`. */
  output: string | undefined;
  force: boolean;
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** The run's environment (proxy variables). */
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  /** Whether stdout is a terminal: a binary file is not written there without `force`. */
  stdoutIsTTY?: boolean | undefined;
  progress?: ProgressSink | undefined;
  verbose?: ((line: string) => void) | undefined;
  /** V8's collector for freeing spent read buffers (tests pass a spy). */
  collector?: (() => Collect | null) | undefined;
  /** Called once the file is in place (or every byte is on stdout): the result is final. */
  onComplete?: (() => void) | undefined;
  /** A line on stderr that is not a notice (an interruption that came too late). */
  warn?: ((message: string) => void) | undefined;
}

export interface Saved {
  /** The file written (absent for stdout). */
  path: string | undefined;
  bytes: number;
}

const INTERRUPTED = "download interrupted; nothing was saved";
// Filesystems without hard links: fall back to check-then-rename.
const NO_LINK = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "ENOSYS", "EMLINK", "EACCES"]);

/**
 * `.NAME.<pid>-<random>.part` beside the target: same folder, so the final rename is atomic;
 * the pid lets a later download tell a leftover of a killed process from a running one.
 */
export function makeTempName(target: string): string {
  return tempNameFor(target, "part");
}

/**
 * Counts the bytes a stream delivers with a plain `data` listener, beside the pipe: no extra
 * stream stage in the hot path (a pass-through Transform cost ~35% of the throughput).
 */
function countBytes(source: Readable, onBytes: (total: number) => void): void {
  let total = 0;
  source.on("data", (chunk: Buffer) => {
    total += chunk.length;
    onBytes(total);
  });
}

/**
 * Writes one chunk in full, synchronously. A synchronous write into the page cache takes
 * microseconds; on this 2-core bench it moved 200 MB ~20% faster than a write stream, whose
 * thread-pool hand-offs compete with the socket reads (bench/, README "Download").
 */
function writeChunk(fd: number, chunk: Buffer | string): number {
  const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
  for (let done = 0; done < buf.length;) done += writeSync(fd, buf, done, buf.length - done);
  return buf.length;
}

/** Puts the finished temp file in place; without `force` never replaces a file that appeared. */
async function commit(temp: string, target: string, force: boolean): Promise<void> {
  if (force) return rename(temp, target);
  try {
    // link() fails with EEXIST instead of replacing: no race with another writer.
    await link(temp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (!NO_LINK.has(code)) throw err;
    await checkOverwrite(target, false);
    return rename(temp, target);
  }
  await unlink(temp).catch(() => undefined);
}

/** The OS's words for an error: `no space left on device` from `ENOSPC: no space left on device, write`. */
function describeOsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const words = /^[A-Z0-9_]+: ([^,]+)/.exec(e.message ?? "")?.[1];
  return words && e.code ? `${words} (${e.code})` : (e.code ?? String(err));
}

/**
 * A failure of this machine to write the file (disk full, read-only, an I/O error): exit 2,
 * naming the path and the OS error, never mistaken for a transfer that was cut off.
 */
export function writeError(err: unknown, target: string, device = false): CliError {
  if (err instanceof CliError) return err;
  const full = ["ENOSPC", "EDQUOT", "EFBIG"].includes((err as NodeJS.ErrnoException).code ?? "");
  const fix = full
    ? "Free some space or choose another place with -o, then run the command again."
    : "Choose a place you can write to with -o, then run the command again.";
  return new UsageError(
    `cannot write ${target}: ${describeOsError(err)}`,
    device ? fix : `Nothing was saved. ${fix}`,
  );
}

/**
 * The temporary file beside `target` could not be created: said of the folder, since the OS's
 * words (`/proc/version`: "no such file or directory") would puzzle about a file that exists.
 */
function createError(err: unknown, target: string): unknown {
  const code = (err as NodeJS.ErrnoException).code ?? "";
  if (!["ENOENT", "EACCES", "EPERM", "EROFS"].includes(code)) return err;
  const folder = path.dirname(target);
  if (!existsSync(folder))
    return new UsageError(
      `cannot write ${target}: the folder ${folder} does not exist`,
      "Nothing was saved. Create it first, or choose another path with -o.",
    );
  return new UsageError(
    `cannot write ${target}: no new file can be created in the folder ${folder} (${code})`,
    "Nothing was saved (a download is written beside its target under a temporary name, then renamed). Choose a place you can write to with -o.",
  );
}

// The file system calls of a download: an error of one of these is this machine's, not the network's.
const LOCAL_CALLS = new Set(["open", "write", "close", "fsync", "rename", "link", "unlink"]);

/** `writeChunk`, its failure reported as a write error of `target` (no await in the hot loop). */
export function writeChunkTo(
  fd: number,
  chunk: Buffer | string,
  target: string,
  device = false,
): number {
  try {
    return writeChunk(fd, chunk);
  } catch (err) {
    throw writeError(err, target, device);
  }
}

/** Runs a step that writes locally; its failure is a write error, not a transfer failure. */
async function writing<T>(target: string, step: () => T | Promise<T>, device = false): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw writeError(err, target, device);
  }
}

function failure(err: unknown, bytes: number, target: string): CliError {
  if (err instanceof CliError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EEXIST")
    return new UsageError(
      `${target} already exists`,
      "Add --force to overwrite it, or choose another path with -o.",
    );
  const syscall = (err as NodeJS.ErrnoException).syscall;
  if (code === "ENOSPC" || (syscall !== undefined && LOCAL_CALLS.has(syscall)))
    return writeError(err, target);
  const why = err instanceof Error ? err.message : String(err);
  return new UnexpectedError(
    `the download was cut off after ${bytes} bytes (${code ?? why})`,
    "Nothing was saved; run the command again (it asks for a fresh link).",
  );
}

/** `-o -` cut off: bytes already on stdout cannot be taken back, so say how many went. */
function stdoutFailure(err: unknown, bytes: number): CliError {
  if (err instanceof CliError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const why = code ?? (err instanceof Error ? err.message : String(err));
  if (bytes === 0)
    return new UnexpectedError(
      `the download was cut off before any byte arrived (${why})`,
      "Nothing was written; run the command again (it asks for a fresh link).",
    );
  return new UnexpectedError(
    `the download was cut off after ${bytes} bytes had gone to stdout (${why})`,
    "The output is incomplete: discard it and run the command again (it asks for a fresh link).",
  );
}

/**
 * Streams a readable to `target` through a temporary file beside it, renamed into place only when
 * complete. On any failure or interruption the temporary file is removed: no partial file is left
 * and an existing file is never clobbered (unless `force`).
 */
export async function writeFileAtomically(
  source: Readable,
  target: string,
  options: {
    force: boolean;
    signal: AbortSignal;
    expectedSize?: number | undefined;
    onBytes?: (n: number) => void;
    collector?: (() => Collect | null) | undefined;
  },
): Promise<number> {
  // What a SIGKILL left of an earlier download to the same place.
  await removeStaleTemps(target);
  // Named and tracked by temp-output.ts (removed if the process exits with it); this function
  // answers signals itself, to say what it kept.
  const out = createTempOutput(target, { onSignal: "owner", ending: "part", force: options.force });
  const temp = out.path;
  let bytes = 0;
  let file: FileHandle | undefined;
  let created = false;
  try {
    addAbortSignal(options.signal, source);
    file = await open(temp, "wx").catch((err: unknown) => {
      throw createError(err, target);
    });
    created = true;
    const fd = file.fd;
    const reclaim = reclaimReadBuffers(RECLAIM_EVERY, options.collector);
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      bytes += writeChunkTo(fd, chunk, target);
      reclaim(bytes);
      options.onBytes?.(bytes);
    }
    const done = file;
    file = undefined;
    await writing(target, () => done.close());
    if (options.expectedSize !== undefined && bytes !== options.expectedSize)
      throw new UnexpectedError(
        `the download was cut off: ${bytes} of ${options.expectedSize} bytes arrived`,
        "Nothing was saved; run the command again (it asks for a fresh link).",
      );
    // The commit is the one point that decides: interrupted before it, nothing is kept (exit
    // 130); once the file is in place, the download succeeded whenever the signal comes.
    if (options.signal.aborted) throw new InterruptedError(INTERRUPTED);
    await commit(temp, target, options.force);
    out.discard(); // In place already: only the tracking ends.
    return bytes;
  } catch (err) {
    await file?.close().catch(() => undefined);
    // Only a temporary file this call created is removed: "wx" refuses one that was there.
    if (created) out.discard();
    if (options.signal.aborted) throw new InterruptedError(INTERRUPTED);
    throw failure(err, bytes, target);
  }
}

/**
 * Streams a readable into a character device or FIFO (`-o /dev/null`, a named pipe), opened
 * as it is (no temporary file, no rename: that would replace the device). Write errors are
 * reported as such (`-o /dev/full`: no space left on device, exit 2).
 */
export async function writeToDevice(
  source: Readable,
  target: string,
  options: {
    signal: AbortSignal;
    expectedSize?: number | undefined;
    onBytes?: (n: number) => void;
    collector?: (() => Collect | null) | undefined;
  },
): Promise<number> {
  let bytes = 0;
  let file: FileHandle | undefined;
  try {
    addAbortSignal(options.signal, source);
    // Write-only, without O_CREAT or O_TRUNC: a device that vanished is not made a file.
    file = await writing(target, () => open(target, constants.O_WRONLY), true);
    const fd = file.fd;
    const reclaim = reclaimReadBuffers(RECLAIM_EVERY, options.collector);
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      bytes += writeChunkTo(fd, chunk, target, true);
      reclaim(bytes);
      options.onBytes?.(bytes);
    }
    const done = file;
    file = undefined;
    await writing(target, () => done.close(), true);
    if (options.expectedSize !== undefined && bytes !== options.expectedSize)
      throw new UnexpectedError(
        `the download was cut off: ${bytes} of ${options.expectedSize} bytes arrived`,
        "Run the command again (it asks for a fresh link).",
      );
    return bytes;
  } catch (err) {
    await file?.close().catch(() => undefined);
    if (options.signal.aborted) throw new InterruptedError("download interrupted");
    throw failure(err, bytes, target);
  }
}

/** Text a terminal can show; anything else (a PDF) would fill it with control bytes. */
function isText(contentType: string): boolean {
  return /^text\//i.test(contentType);
}

/** Whether a device path is a terminal (`-o /dev/tty`); opened without blocking, then closed. */
async function isTerminalDevice(device: string): Promise<boolean> {
  try {
    // A FIFO is never a terminal, and opening it here would end a waiting reader's input:
    // the close is its end of file, and the real write would then wait for a reader forever.
    if ((await stat(device)).isFIFO()) return false;
    // O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of waiting; it is no terminal.
    const handle = await open(
      device,
      constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY,
    );
    try {
      return isatty(handle.fd);
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** The --verbose summary of a finished transfer: bytes, time and rate (MiB/s). */
export function formatTransferLine(
  bytes: number,
  startedMs: number,
  nowMs = performance.now(),
): string {
  const ms = Math.max(nowMs - startedMs, 0.001);
  const rate = bytes / 1024 / 1024 / (ms / 1000);
  return `received ${bytes} bytes in ${Math.round(ms)} ms (${rate.toFixed(1)} MiB/s)`;
}

/**
 * Fetches a download link's file (a fresh link, never cached) into the `-o` target: a file
 * written atomically, or stdout for `-o -`.
 */
export async function saveDownload(link: DownloadLink, options: SaveOptions): Promise<Saved> {
  const name = safeBaseName(link.filename, link.content_type);
  const target = await resolveTarget(options.output, name, options.cwd);
  if (target.kind === "file") await checkOverwrite(target.path, options.force);
  const binary = !options.force && !isText(link.content_type);
  const onTerminal =
    target.kind === "stdout"
      ? Boolean(options.stdoutIsTTY)
      : target.kind === "device" && binary && (await isTerminalDevice(target.path));
  if (binary && onTerminal)
    throw new UsageError(
      `refusing to write a binary file (${link.content_type}) to the terminal`,
      `Redirect it (> ${name}), save it with -o ${name}, ask for the text version with --text, or add --force.`,
    );
  // From the file request to the file in place: the figure `npm run bench` compares with curl's.
  const started = performance.now();
  const source = await openSource(link.url, options);
  const { progress } = options;
  const report = (bytes: number) => options.verbose?.(formatTransferLine(bytes, started));
  progress?.start(target.kind === "stdout" ? name : path.basename(target.path), source.size);
  try {
    if (target.kind === "stdout") {
      let bytes = 0;
      const reclaim = reclaimReadBuffers(RECLAIM_EVERY, options.collector);
      try {
        countBytes(source.stream, (n) => {
          bytes = n;
          reclaim(n);
          progress?.update(n);
        });
        await pipeline(source.stream, options.stdout, { signal: options.signal, end: false });
      } catch (err) {
        if (options.signal.aborted) throw new InterruptedError("download interrupted");
        throw stdoutFailure(err, bytes);
      }
      options.onComplete?.();
      report(bytes);
      if (options.signal.aborted)
        options.warn?.(`interrupted after the download had finished: all ${bytes} bytes are out`);
      return { path: undefined, bytes };
    }
    if (target.kind === "device") {
      const bytes = await writeToDevice(source.stream, target.path, {
        signal: options.signal,
        expectedSize: source.size,
        onBytes: (n) => progress?.update(n),
        collector: options.collector,
      });
      report(bytes);
      return { path: undefined, bytes };
    }
    const bytes = await writeFileAtomically(source.stream, target.path, {
      force: options.force,
      signal: options.signal,
      expectedSize: source.size,
      onBytes: (n) => progress?.update(n),
      collector: options.collector,
    });
    options.onComplete?.();
    report(bytes);
    if (options.signal.aborted)
      options.warn?.(
        `interrupted after the download had finished: ${target.path} is complete (${bytes} bytes)`,
      );
    return { path: target.path, bytes };
  } finally {
    progress?.stop();
    await source.close();
  }
}
