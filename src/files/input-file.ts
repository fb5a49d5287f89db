import { statSync } from "node:fs";
import { UsageError } from "../errors.js";

/**
 * Refuses a folder where a file is expected (`--data`, `data info`, `data build`'s input), and
 * names an empty file as such, whatever kind of file the command expected (exit 2).
 */
export function checkInputFile(file: string, label: string, what = "a dataset file"): void {
  const info = statSync(file, { throwIfNoEntry: false });
  if (info?.isDirectory())
    throw new UsageError(`${label}${file} is a folder`, `Give ${what}, not a folder.`);
  if (info?.isFile() && info.size === 0)
    throw new UsageError(
      `${label}${file} is empty (0 bytes)`,
      `Give ${what} (a JSON dataset or a snapshot); an interrupted copy or download leaves an empty file.`,
    );
}
