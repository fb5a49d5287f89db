import { lstat, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../errors.js";

/**
 * Where a download goes: standard output, a file path (written beside, then renamed into place),
 * or a character device or FIFO (`/dev/null`, a named pipe), written directly: a rename would
 * replace the device itself.
 */
export type DownloadTarget =
  { kind: "stdout" } | { kind: "file"; path: string } | { kind: "device"; path: string };

async function kindOf(p: string): Promise<"dir" | "device" | "special" | "other" | undefined> {
  try {
    const st = await stat(p);
    if (st.isDirectory()) return "dir";
    if (st.isCharacterDevice() || st.isFIFO()) return "device";
    if (st.isBlockDevice() || st.isSocket()) return "special";
    return "other";
  } catch {
    return undefined;
  }
}

/**
 * `-o` resolved: `-` is stdout; an existing folder (or a path ending in a separator) gets the
 * safe file name inside it; anything else is the file itself. Default: the name in `cwd`.
 */
export async function resolveTarget(
  output: string | undefined,
  fileName: string,
  cwd: string,
): Promise<DownloadTarget> {
  if (output === "-") return { kind: "stdout" };
  if (output === undefined || output === "")
    return { kind: "file", path: path.join(cwd, fileName) };
  const abs = path.resolve(cwd, output);
  const kind = await kindOf(abs);
  if (kind === "dir") return { kind: "file", path: path.join(abs, fileName) };
  if (kind === "device") return { kind: "device", path: abs };
  if (kind === "special")
    throw new UsageError(
      `--output: ${output} is a block device or socket, not a file`,
      "Give a file, a folder, a character device such as /dev/null, a FIFO, or - for stdout.",
    );
  if (/[/\\]$/.test(output))
    throw new UsageError(
      `--output: the folder ${output} does not exist`,
      "Create it first, or give a file name.",
    );
  if ((await kindOf(path.dirname(abs))) !== "dir")
    throw new UsageError(
      `--output: the folder ${path.dirname(abs)} does not exist`,
      "Create it first, or choose another path with -o.",
    );
  return { kind: "file", path: abs };
}

/** Refuses to replace a folder ever, or an existing file without `--force` (exit 2). */
export async function checkOverwrite(file: string, force: boolean): Promise<void> {
  let exists: "dir" | "other" | undefined;
  try {
    exists = (await lstat(file)).isDirectory() ? "dir" : "other";
  } catch {
    return;
  }
  if (exists === "dir") throw new UsageError(`${file} is a folder`, "Choose a file path with -o.");
  if (!force)
    throw new UsageError(
      `${file} already exists`,
      "Add --force to overwrite it, or choose another path with -o.",
    );
}
