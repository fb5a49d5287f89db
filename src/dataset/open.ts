import { loadDataset, type LoadedDataset } from "./load.js";
import { isSqliteFile } from "../snapshot/sqlite.js";
import { checkInputFile } from "../files/input-file.js";

/**
 * Opens `--data`: a snapshot (told by SQLite's header) is opened where it lies, a JSON dataset
 * is loaded whole. Both give the engine the same Db interface, and the same answers.
 */
export async function openDataset(file: string): Promise<LoadedDataset> {
  checkInputFile(file, "--data: ");
  if (!isSqliteFile(file)) return loadDataset(file);
  // Loaded only for a snapshot: node:sqlite and the store stay out of every other start.
  const { openSnapshot } = await import("../snapshot/store.js");
  return openSnapshot(file);
}
