import { statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";

/** The extension of a snapshot in the data folder (`medicare` is `medicare.db`). */
export const SNAPSHOT_EXTENSION = ".db";

/**
 * Whether a `--data` value names a snapshot of the data folder: a bare name (letters, digits,
 * `_`, `-`), no path separator and no extension. A file of that name in the working folder
 * still wins (see resolveNamedData).
 */
export function isSnapshotName(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(value);
}

/**
 * The user's data folder for coverage: `$XDG_DATA_HOME/coverage` when that is set, else the
 * platform's own (env-paths: `~/.local/share/coverage`, `~/Library/Application Support/coverage`,
 * `%LOCALAPPDATA%\coverage\Data`).
 */
export async function resolveDataDir(env: NodeJS.ProcessEnv): Promise<string> {
  const xdg = env.XDG_DATA_HOME;
  // The XDG spec ignores a relative value; so do we.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "coverage");
  const { default: envPaths } = await import("env-paths");
  return envPaths("coverage", { suffix: "" }).data;
}

/** The path of the snapshot `name` in the data folder (it may not exist yet). */
export async function snapshotPath(name: string, env: NodeJS.ProcessEnv): Promise<string> {
  return path.join(await resolveDataDir(env), `${name}${SNAPSHOT_EXTENSION}`);
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * A `--data` value as a file to open: a bare name that is not a file in the working folder is
 * the snapshot of that name in the data folder (`--data medicare`), which must exist; anything
 * else is returned as given.
 */
export async function resolveNamedData(
  value: string,
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): Promise<string> {
  if (!isSnapshotName(value) || isFile(path.resolve(cwd, value))) return value;
  const file = await snapshotPath(value, env);
  if (isFile(file)) return file;
  // A folder of that name in the working folder: say so, not "no file" (finding N14).
  const here = isFolder(path.resolve(cwd, value))
    ? `'${value}' in the working folder is a folder, not a dataset file`
    : `no file '${value}' in the working folder`;
  throw new UsageError(
    `--data ${value}: no snapshot named '${value}' in ${path.dirname(file)} (and ${here})`,
    value === "medicare"
      ? "Pull it with `coverage data pull medicare`; `coverage data list` shows the snapshots there."
      : "`coverage data list` shows the snapshots there; give a file with a path (./FILE) otherwise.",
  );
}
