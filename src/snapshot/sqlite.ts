import { closeSync, openSync, readSync } from "node:fs";
import { UsageError } from "../errors.js";

type SqliteModule = typeof import("node:sqlite");

/** The oldest Node.js whose `node:sqlite` needs no flag. */
export const SQLITE_NODE = "22.13";

let loaded: SqliteModule | undefined;

/** Whether this Node.js can open snapshots (`node:sqlite` without a flag). */
export function hasSqlite(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

function isSqliteWarning(warning: unknown, args: unknown[]): boolean {
  const text = warning instanceof Error ? `${warning.name} ${warning.message}` : String(warning);
  const type =
    typeof args[0] === "string"
      ? args[0]
      : ((args[0] as { type?: string } | undefined)?.type ?? "");
  return /sqlite/i.test(text) && (/Experimental/.test(type) || /Experimental/.test(text));
}

/**
 * Loads `node:sqlite`, on first use only (no other command pays for it), with its
 * ExperimentalWarning kept off the user's stderr. On a Node.js without it: exit 2 naming the
 * version needed (`needs`: the sentence's subject and verb, "snapshots need").
 */
export async function loadSqlite(needs = "snapshots need"): Promise<SqliteModule> {
  if (loaded) return loaded;
  if (!hasSqlite())
    throw new UsageError(
      `${needs} Node.js ${SQLITE_NODE} or newer (node:sqlite); this is Node.js ${process.versions.node}`,
      `Run with Node.js ${SQLITE_NODE}+, or use a JSON dataset (which works on this Node.js).`,
    );
  const original = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...args: unknown[]) {
    if (isSqliteWarning(warning, args)) return;
    return (original as (...a: unknown[]) => void).call(process, warning, ...args);
  } as typeof process.emitWarning;
  try {
    // Not import(): the CLI's bundle runs as a script where dynamic import is not wired, and
    // every Node.js with node:sqlite (22.13+) has process.getBuiltinModule (22.3+).
    const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    loaded = get?.call(process, "node:sqlite") as SqliteModule | undefined;
  } finally {
    process.emitWarning = original;
  }
  if (!loaded)
    throw new UsageError(
      `${needs} node:sqlite, which this Node.js ${process.versions.node} does not provide`,
      `Run with Node.js ${SQLITE_NODE}+, or use a JSON dataset.`,
    );
  return loaded;
}

const HEADER = "SQLite format 3\0";

/** Whether a file starts with SQLite's header (a snapshot), as opposed to JSON text. */
export function isSqliteFile(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return false; // The JSON loader reports the path problem.
  }
  try {
    const buf = Buffer.alloc(HEADER.length);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return n === buf.length && buf.toString("latin1") === HEADER;
  } finally {
    closeSync(fd);
  }
}
