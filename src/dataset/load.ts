import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../errors.js";
import { indexDataset, type Db } from "../engine/db.js";
import { checkDatasetReferences, jsonPath } from "./check.js";
import { isWellFormedDataset } from "./fast-check.js";
import { Dataset, type DatasetInput } from "./schema.js";

export interface LoadedDataset {
  db: Db;
  file: string;
  /** Folder that the dataset's file paths are relative to. */
  dir: string;
}

/** The bundled sample dataset shipped in `fixtures/`. */
export function bundledDatasetPath(): string {
  // dist/cli.js and src/dataset/load.ts are both two levels below the package root.
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.basename(here) === "dist" ? path.dirname(here) : path.resolve(here, "../..");
  return path.join(root, "fixtures", "dataset.json");
}

function badDataset(file: string, lines: string[]): UsageError {
  return new UsageError(
    `bad dataset ${file}`,
    "Fix the file (format: coverage-dataset version 1) or drop --data / COVERAGE_DATA to use the bundled sample.",
    lines,
  );
}

/** Checks parsed JSON against the dataset format; throws naming the file and first bad paths. */
export function parseDataset(raw: unknown, file: string): DatasetInput {
  const dataset = isWellFormedDataset(raw) ? raw : parseWithSchema(raw, file);
  const problems = checkDatasetReferences(dataset, 5);
  if (problems.length)
    throw badDataset(
      file,
      problems.map((p) => `${p.path}: ${p.message}`),
    );
  return dataset;
}

// The slow path, for its messages: zod names every problem with its JSON path.
function parseWithSchema(raw: unknown, file: string): Dataset {
  const result = Dataset.safeParse(raw);
  if (!result.success) {
    throw badDataset(
      file,
      result.error.issues.slice(0, 5).map((i) => `${jsonPath(i.path) || "(root)"}: ${i.message}`),
    );
  }
  return result.data;
}

/** Reads, checks and indexes a dataset file. */
export async function loadDataset(file: string): Promise<LoadedDataset> {
  const abs = path.resolve(file);
  let text: string;
  try {
    // Sync on purpose: nothing else runs meanwhile, and it decodes UTF-8 in one native call
    // where the promise API goes chunk by chunk through a string decoder.
    text = readFileSync(abs, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read dataset ${file}${code ? ` (${code})` : ""}`,
      "Check the path given to --data or COVERAGE_DATA.",
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw badDataset(file, [`(root): not valid JSON: ${(err as Error).message}`]);
  }
  return { db: indexDataset(parseDataset(raw, file)), file: abs, dir: path.dirname(abs) };
}
