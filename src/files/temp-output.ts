import { existsSync, linkSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { InterruptedError, UsageError } from "../errors.js";
import { exitNow } from "./exit-now.js";

/**
 * The one owner of the temporary files and folders the CLI writes (snapshots, exports,
 * imports, downloads, pulls). Each output is written under a hidden name beside its target
 * (same folder, so the rename into place is atomic) and put in place by `commit`, or removed
 * by `discard`. What is still uncommitted is removed, synchronously, on SIGINT, SIGTERM and
 * SIGHUP (then the process exits 130, 143 or 129) and when the process exits any other way:
 * a failure or a signal leaves nothing at the output path or beside it.
 *
 *   const out = createTempOutput(target, { force, signal: ctx.signal });
 *   try { write(out.path); out.commit(); } catch (err) { out.discard(); throw err; }
 *   outputComplete(); // a signal from now on exits 0: the result is on disk
 */

/** The signals that stop a writer, and their numbers (exit code 128 + number). */
export const STOP_SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

export interface TempOutputOptions {
  /** Replace an existing target (else `commit` refuses one, even one that appeared meanwhile). */
  force?: boolean | undefined;
  /** A file (default) or a folder of files (`medicare.files/`); a folder replaces an older one. */
  kind?: "file" | "folder";
  /**
   * `exit` (default): a signal removes the temporary output and ends the process at once.
   * `owner`: the caller stops on signals itself (a download, which says what it kept); the
   * temporary output is still removed if the process exits with it in place.
   */
  onSignal?: "exit" | "owner";
  /** The run's Ctrl-C: already aborted, nothing is created (exit 130). */
  signal?: AbortSignal | undefined;
  /** The file name's ending: `tmp` (default) or `part`. */
  ending?: string;
  /** How the output is named in messages (default: the target as given). */
  shown?: string;
}

/** A temporary output beside its target. */
export interface TempOutput {
  /** The absolute path of the output once in place. */
  readonly target: string;
  /** The temporary path to write (a folder is not created: the writer makes it). */
  readonly path: string;
  /** Puts the output in place (synchronously: a signal never finds it half renamed). */
  commit(): void;
  /** Removes what was written; harmless after `commit` or a second time. */
  discard(): void;
  readonly committed: boolean;
}

interface Entry {
  path: string;
  mode: "exit" | "owner";
  shown: string;
}

const live = new Set<Entry>();
let exitHook = false;
let signalHooks = false;
let complete = false;
// Errors a hard link may fail with where the file system has none: check, then rename.
const NO_LINK = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "ENOSYS", "EMLINK", "EACCES"]);

/** `.NAME.<pid>-<12 hex>.<ending>` beside `target` (the pid tells a stale one from a running one). */
export function tempNameFor(target: string, ending = "tmp"): string {
  // Web Crypto, not node:crypto: this module is in every command's bundle path, and node:crypto
  // loads Node's streams at start-up (test/e2e/bundle.test.ts holds a local search to none).
  const suffix = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(6))).toString("hex");
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}-${suffix}.${ending}`,
  );
}

/** Removes a temporary output and the journal files SQLite may keep beside it while it writes. */
function removeOutput(file: string): void {
  rmSync(file, { recursive: true, force: true });
  for (const suffix of ["-journal", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
}

function removeLive(): void {
  for (const entry of live) {
    try {
      removeOutput(entry.path);
    } catch {
      // Best effort at exit: nothing else can be done now.
    }
  }
  live.clear();
}

function say(line: string): void {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr closed: the exit code still tells.
  }
}

function onStop(name: StopSignal): void {
  const stopping = [...live].filter((e) => e.mode === "exit");
  if (stopping.length) {
    const shown = stopping.map((e) => e.shown).join(", ");
    removeLive();
    say(
      name === "SIGINT"
        ? `interrupted; nothing was written to ${shown}`
        : `stopped by ${name}; nothing was written to ${shown}`,
    );
    exitNow(128 + STOP_SIGNALS[name]);
  }
  // The result is in place (what is left is a pull's staging folder, removed at exit): exit 0.
  if (complete) exitNow(0);
  // A download in progress answers the signal itself.
  if (live.size) return;
  // Ctrl-C before any output exists: the run's own handler aborts the command.
  if (name !== "SIGINT") exitNow(128 + STOP_SIGNALS[name]);
}

// Signal handlers only once a writer that stops at once exists: a process that only downloads
// keeps the download's own handling (and the signals' default action) untouched.
function install(mode: Entry["mode"]): void {
  if (!exitHook) process.on("exit", removeLive);
  exitHook = true;
  if (mode !== "exit" || signalHooks) return;
  signalHooks = true;
  for (const name of Object.keys(STOP_SIGNALS) as StopSignal[])
    process.on(name, () => onStop(name));
}

/** Marks the run's result final (its outputs are in place): a signal from now on exits 0. */
export function outputComplete(): void {
  complete = true;
}

function existsError(shown: string): UsageError {
  return new UsageError(
    `${shown} already exists`,
    "Add --force to replace it, or choose another path with -o.",
  );
}

/** Refuses a target that is a folder, or an existing file without `force` (exit 2). */
export function refuseExisting(target: string, shown: string, force: boolean | undefined): void {
  const info = statSync(target, { throwIfNoEntry: false });
  if (info?.isDirectory())
    throw new UsageError(`${shown} is a folder`, "Give a file path with -o.");
  if (info && !force) throw existsError(shown);
}

/**
 * Checks an output path before any work: not `-` (unless the command streams, which the
 * caller handles first), not a folder, its folder existing, no file there without `force`.
 */
export function checkOutputPath(output: string, force: boolean | undefined): string {
  if (output === "-")
    throw new UsageError(
      "-o -: this command writes a file, not a stream",
      "Give a file path with -o.",
    );
  const target = path.resolve(output);
  const folder = statSync(path.dirname(target), { throwIfNoEntry: false });
  if (!folder?.isDirectory())
    throw new UsageError(
      `-o ${output}: the folder ${path.dirname(output)} does not exist`,
      "Create it first, or choose another path with -o.",
    );
  refuseExisting(target, output, force);
  return target;
}

/** A temporary output beside `target`, removed on any signal, failure or exit until committed. */
export function createTempOutput(target: string, options: TempOutputOptions = {}): TempOutput {
  if (options.signal?.aborted) throw new InterruptedError("interrupted; nothing was written");
  const abs = path.resolve(target);
  const shown = options.shown ?? target;
  const kind = options.kind ?? "file";
  const entry: Entry = {
    path: tempNameFor(abs, options.ending ?? (kind === "folder" ? "part" : "tmp")),
    mode: options.onSignal ?? "exit",
    shown,
  };
  install(entry.mode);
  live.add(entry);
  let committed = false;
  const discard = () => {
    if (!live.delete(entry)) return;
    removeOutput(entry.path);
  };
  const commit = () => {
    if (!live.has(entry)) throw new Error(`${shown}: temporary output already settled`);
    try {
      if (kind === "folder") commitFolder(entry.path, abs);
      else commitFile(entry.path, abs, shown, options.force);
    } catch (err) {
      discard();
      throw err;
    }
    live.delete(entry);
    committed = true;
  };
  return {
    target: abs,
    path: entry.path,
    commit,
    discard,
    get committed() {
      return committed;
    },
  };
}

/** Without `force`, a hard link puts the file in place and fails if one appeared: no race. */
function commitFile(temp: string, target: string, shown: string, force: boolean | undefined): void {
  if (statSync(target, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${shown} is a folder`, "Give a file path with -o.");
  if (force) return renameSync(temp, target);
  try {
    linkSync(temp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") throw existsError(shown);
    if (!NO_LINK.has(code)) throw err;
    if (existsSync(target)) throw existsError(shown);
    return renameSync(temp, target);
  }
  unlinkSync(temp);
}

/** A folder replaces an older one of the same name (set aside, then removed). */
function commitFolder(temp: string, target: string): void {
  if (!existsSync(temp)) return; // Nothing was stored: no folder to put in place.
  const old = `${temp}.old`;
  const hadOld = existsSync(target);
  if (hadOld) renameSync(target, old);
  renameSync(temp, target);
  if (hadOld) rmSync(old, { recursive: true, force: true });
}
