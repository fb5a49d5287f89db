import type { DatabaseSync } from "node:sqlite";
import { constants as bufferConstants, isUtf8 } from "node:buffer";
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../errors.js";
import { indexDataset, type Db } from "../engine/db.js";
import { checkDatasetReferences, jsonPath } from "./check.js";
import { openPrebuiltIndex, toPrebuiltIndex, type PrebuiltIndex } from "./prebuilt.js";
import { isWellFormedDataset } from "./fast-check.js";
import { safeParseBounded, TOO_MANY } from "../contract/index.js";
import {
  Dataset,
  DatasetCode,
  type DatasetInput,
  DatasetLob,
  DatasetPayer,
  DatasetPolicy,
} from "./schema.js";

export interface LoadedDataset {
  db: Db;
  file: string;
  /** Folder that the dataset's file paths are relative to. */
  dir: string;
  /** A snapshot's open database (read-only), for tables beside the catalogue. */
  database?: DatabaseSync;
}

// This file's folder: dist/ in the built CLI; src/dataset/ from the sources (tsx, tests).
const HERE = path.dirname(fileURLToPath(import.meta.url));
const BUILT = path.basename(HERE) === "dist";

function packageRoot(): string {
  // dist/cli.js and src/dataset/load.ts are both two levels below the package root.
  return BUILT ? path.dirname(HERE) : path.resolve(HERE, "../..");
}

/** The bundled sample dataset shipped in `fixtures/`. */
export function bundledDatasetPath(): string {
  return path.join(packageRoot(), "fixtures", "dataset.json");
}

/** The error of a dataset that breaks the format: the file, then its first problems by path. */
export function badDataset(file: string, lines: string[]): UsageError {
  return new UsageError(
    `bad dataset ${file}`,
    // Said alike for --data and `data build`'s input (finding 30: no flag the user did not type).
    "Fix the file: the format is coverage-dataset version 1 (docs/data.md).",
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
  const result = safeParseBounded(Dataset, raw);
  if (result.success) return result.data;
  const issues = result.error.issues[0]?.message === TOO_MANY ? itemIssues(raw) : [];
  throw badDataset(
    file,
    (issues.length ? issues : result.error.issues)
      .slice(0, 5)
      .map((i) => `${jsonPath(i.path) || "(root)"}: ${messageOf(i)}`),
  );
}

/** zod's message, except for a field left out, which zod reports as a wrong type or value. */
function messageOf(issue: { path: PropertyKey[]; message: string; input?: unknown }): string {
  return issue.path.length > 0 && "input" in issue && issue.input === undefined
    ? "required field missing"
    : issue.message;
}

const ITEMS = {
  payers: DatasetPayer,
  lobs: DatasetLob,
  codes: DatasetCode,
  policies: DatasetPolicy,
};

/** zod's problems with one item of a top-level list, as `path: message` lines. */
export function describeItemProblems(
  key: keyof typeof ITEMS,
  index: number,
  item: unknown,
): string[] {
  const result = safeParseBounded(ITEMS[key], item);
  if (result.success) return [];
  return result.error.issues.map(
    (issue) => `${jsonPath([key, index, ...issue.path])}: ${messageOf(issue)}`,
  );
}

/** Too many problems for one pass: the first ones, item by item, so the path is still named. */
function itemIssues(raw: unknown): Array<{ path: PropertyKey[]; message: string }> {
  for (const [key, schema] of Object.entries(ITEMS)) {
    const list = (raw as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const result = safeParseBounded(schema, list[i]);
      if (!result.success)
        return result.error.issues.map((issue) => ({ ...issue, path: [key, i, ...issue.path] }));
    }
  }
  return [];
}

/** The real path of each dataset's folder, resolved once. */
const realDirs = new Map<string, string>();

function realPath(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * A dataset's stored file as it may be served: its real path (symbolic links resolved) and
 * size, or undefined when it is missing, not a regular file, or really outside the dataset's
 * folder (a link to /etc/passwd). `files` paths are checked at load, but a link on disk can
 * lead anywhere; serving the target would hand out any file the process can read.
 */
export function resolveStoredFile(
  dataset: Pick<LoadedDataset, "dir">,
  file: string,
): { path: string; size: number } | undefined {
  let root = realDirs.get(dataset.dir);
  if (root === undefined) {
    root = realPath(dataset.dir);
    if (root === undefined) return undefined;
    realDirs.set(dataset.dir, root);
  }
  const real = realPath(path.resolve(dataset.dir, file));
  if (real === undefined) return undefined;
  const inside = path.relative(root, real);
  if (inside === "" || path.isAbsolute(inside) || inside.split(path.sep)[0] === "..")
    return undefined;
  const info = statSync(real, { throwIfNoEntry: false });
  return info?.isFile() ? { path: real, size: info.size } : undefined;
}

/** Whether a dataset's stored file is there, as a regular file inside the dataset's folder. */
export function hasStoredFile(dataset: Pick<LoadedDataset, "dir">, file: string): boolean {
  return resolveStoredFile(dataset, file) !== undefined;
}

/** A JSON file over V8's longest string (~512 MB) cannot be parsed whole: a snapshot can hold it. */
function tooLarge(file: string, abs: string): UsageError {
  const mb = Math.round((statSync(abs, { throwIfNoEntry: false })?.size ?? 0) / 1e6);
  return new UsageError(
    `dataset ${file} is too large to load as one JSON text (${mb} MB; Node.js strings stop at about 512 MB)`,
    `Compile it into a snapshot, which is read without loading it: coverage data build ${file} -o dataset.db, then --data dataset.db (Node.js 22.13+).`,
  );
}

/** Reads, checks and indexes a dataset file (the bundled sample from its prebuilt index). */
export async function loadDataset(file: string): Promise<LoadedDataset> {
  const abs = path.resolve(file);
  // Over V8's longest string the text cannot be decoded whole (ERR_STRING_TOO_LONG); said before
  // reading half a gigabyte for nothing.
  const size = statSync(abs, { throwIfNoEntry: false })?.size ?? 0;
  if (size > bufferConstants.MAX_STRING_LENGTH) throw tooLarge(file, abs);
  const db = readPrebuiltIndex(abs, size) ?? indexDataset(readDataset(file, abs));
  return { db, file: abs, dir: path.dirname(abs) };
}

/** dist/sample-index.json: the bundled sample's index, written by the build. */
export const PREBUILT_INDEX = "sample-index.json";

/**
 * The bundled sample's engine indexes as the build made them (build/index-sample.mjs), when
 * this is the built CLI reading the bundled sample of the size they were made from: checking
 * and indexing the sample was ~6% of a one-shot search's instructions.
 */
function readPrebuiltIndex(abs: string, size: number): Db | undefined {
  if (!BUILT || abs !== bundledDatasetPath()) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path.join(HERE, PREBUILT_INDEX), "utf8"));
  } catch {
    return undefined;
  }
  return openPrebuiltIndex(raw, size);
}

/** The prebuilt index of a dataset file, read and checked as --data reads it (for the build). */
export function prebuildIndex(file: string): PrebuiltIndex {
  const abs = path.resolve(file);
  return toPrebuiltIndex(indexDataset(readDataset(file, abs)), statSync(abs).size);
}

/** Reads a dataset file and checks it against the format. */
function readDataset(file: string, abs: string): DatasetInput {
  let text: string;
  try {
    // Sync on purpose: nothing else runs meanwhile, and it decodes UTF-8 in one native call
    // where the promise API goes chunk by chunk through a string decoder.
    text = readFileSync(abs, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ERR_STRING_TOO_LONG") throw tooLarge(file, abs);
    throw new UsageError(
      `cannot read dataset ${file}${code ? ` (${code})` : ""}`,
      "Check the path given to --data or COVERAGE_DATA.",
    );
  }
  // A byte-order mark is allowed (editors on Windows write one); bytes that are not UTF-8 are not.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\ufffd") && !isUtf8(readFileSync(abs)))
    throw badDataset(file, ["(root): not UTF-8 text (the format is one UTF-8 JSON file)"]);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw badDataset(file, [`(root): not valid JSON: ${(err as Error).message}`]);
  }
  return parseDataset(raw, file);
}
