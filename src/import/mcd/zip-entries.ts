import type yauzl from "yauzl";
import { UsageError } from "../../errors.js";

/** What a zip entry must not be: refused (exit 2), whoever reads the zip (import, pull). */
const UNSAFE_NAME = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s;

/** yauzl's refusal of an absolute or climbing entry name, as the usage error it is. */
export function unsafeNameError(err: Error, label: string, fix: string): UsageError | undefined {
  const m = UNSAFE_NAME.exec(err.message);
  if (!m) return undefined;
  return new UsageError(
    `${label}: the zip holds an entry named '${m[2]}' (an absolute or climbing path); nothing was extracted`,
    fix,
  );
}

// The Unix file type in the high half of an entry's external attributes (made by Unix: 3).
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** A symbolic-link entry is refused: its bytes are a path, never a table. */
export function checkNotSymlink(entry: yauzl.Entry, label: string, fix: string): void {
  const unix = entry.versionMadeBy >> 8 === 3;
  if (unix && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK)
    throw new UsageError(
      `${label}: the zip holds '${entry.fileName}', a symbolic link; nothing was read through it`,
      fix,
    );
}
