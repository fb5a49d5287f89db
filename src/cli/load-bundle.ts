import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import type * as Start from "./start.js";

/** What dist/bundle.cjs (built from src/cli/start.ts) exports. */
export type Bundle = typeof Start;

export interface LoadedBundle {
  bundle: Bundle;
  script: vm.Script;
}

const BUNDLE = "bundle.cjs";
const CODE_CACHE = "bundle.cache";

// CommonJS's own wrapper, plus the import() the bundle cannot run itself (src/import-esm.ts).
// The prefix stays on the first line, so line numbers in stack traces are the file's.
const wrap = (source: string) =>
  `(function (exports, require, module, __filename, __dirname, __importEsm) { ${source}\n})`;

const importEsm = (specifier: string): Promise<unknown> => import(specifier);

function readCodeCache(dir: string): Buffer | undefined {
  try {
    return readFileSync(path.join(dir, CODE_CACHE));
  } catch {
    return undefined;
  }
}

/**
 * Compiles and runs the bundled CLI in `dir`, with V8's code for it from `bundle.cache` when
 * that was made by this Node (a cache from another V8 is refused by V8 and costs nothing).
 */
export function loadBundle(dir: string, { useCache = true } = {}): LoadedBundle {
  // Node 20 keeps no compiled code between runs (module.enableCompileCache is Node 22), and
  // compiling the CLI's modules is a third of a local search's start: a script can take V8's
  // code cache, a module cannot.
  const file = path.join(dir, BUNDLE);
  const script = new vm.Script(wrap(readFileSync(file, "utf8")), {
    filename: file,
    cachedData: useCache ? readCodeCache(dir) : undefined,
  });
  const module = { exports: {} as Bundle };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dir, importEsm);
  return { bundle: module.exports, script };
}

/** Saves V8's code for everything the bundle has compiled so far as its code cache. */
export function writeCodeCache({ script }: LoadedBundle, dir: string): number {
  const data = script.createCachedData();
  const target = path.join(dir, CODE_CACHE);
  writeFileSync(`${target}.tmp`, data);
  renameSync(`${target}.tmp`, target);
  return data.length;
}
