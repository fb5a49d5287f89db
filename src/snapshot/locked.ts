import { UnexpectedError } from "../errors.js";

// SQLITE_BUSY and SQLITE_LOCKED (their extended codes share the low byte).
const BUSY = 5;
const LOCKED = 6;

/** A snapshot another process held locked past the readers' wait (exit 1). */
export class SnapshotLockedError extends UnexpectedError {}

/** True when an SQLite error (or ours) says another connection holds a lock on the file. */
export function isSnapshotLocked(err: unknown): boolean {
  if (err instanceof SnapshotLockedError) return true;
  const code = (err as { errcode?: unknown } | null)?.errcode;
  return typeof code === "number" && ((code & 0xff) === BUSY || (code & 0xff) === LOCKED);
}

/**
 * A snapshot still locked after the wait (BUSY_TIMEOUT_MS): nothing is wrong with the file, so
 * exit 1 (a failure that passes, as a network one) and "run it again", never "rebuild it".
 */
export function lockedSnapshotError(file: string, waitedMs: number): SnapshotLockedError {
  return new SnapshotLockedError(
    `snapshot ${file} is locked: another process is writing to it (a \`coverage data pull\` or \`data import ... --into\`, or another SQLite program); waited ${waitedMs / 1000} s`,
    "Run the command again when that process has finished; the snapshot itself is fine.",
  );
}
