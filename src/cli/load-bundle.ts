import { createHash } from "node:crypto";
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
  /** The bundle's bytes, as compiled. */
  source: Buffer;
}

const BUNDLE = "bundle.cjs";
const CODE_CACHE = "bundle.cache";

// CommonJS's own wrapper, plus the import() the bundle cannot run itself (src/import-esm.ts).
// The prefix stays on the first line, so line numbers in stack traces are the file's.
const wrap = (source: string) =>
  `(function (exports, require, module, __filename, __dirname, __importEsm) { ${source}\n})`;

const importEsm = (specifier: string): Promise<unknown> => import(specifier);

// bundle.cache is MAGIC, then a SHA-1 of the bundle's bytes and the V8 data, then the data. V8
// checks a cache only against the source's length and its own version and flags, and release
// builds of V8 do not check the data itself: a cache left beside a changed bundle of the same
// length would run the old code, and a damaged one crashes the process. The digest (~2 ms)
// rules out both.
const MAGIC = Buffer.from("coverage-code-cache-1\n");
const DIGEST_SIZE = 20;

function digest(source: Buffer, data: Uint8Array): Buffer {
  return createHash("sha1").update(source).update(data).digest();
}

/** The V8 data of `dir`'s code cache if it was made from exactly `source`, else undefined. */
function readCodeCache(dir: string, source: Buffer): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path.join(dir, CODE_CACHE));
  } catch {
    return undefined;
  }
  const header = MAGIC.length + DIGEST_SIZE;
  if (file.length <= header || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const data = file.subarray(header);
  return digest(source, data).equals(file.subarray(MAGIC.length, header)) ? data : undefined;
}

/**
 * Compiles and runs the bundled CLI in `dir`, with V8's code for it from `bundle.cache` when
 * that was made from this very bundle by this Node (otherwise it compiles as usual).
 */
export function loadBundle(dir: string, { useCache = true } = {}): LoadedBundle {
  // Node 20 keeps no compiled code between runs (module.enableCompileCache is Node 22), and
  // compiling the CLI's modules is a third of a local search's start: a script can take V8's
  // code cache, a module cannot.
  const file = path.join(dir, BUNDLE);
  const source = readFileSync(file);
  const script = new vm.Script(wrap(source.toString("utf8")), {
    filename: file,
    cachedData: useCache ? readCodeCache(dir, source) : undefined,
  });
  const module = { exports: {} as Bundle };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dir, importEsm);
  return { bundle: module.exports, script, source };
}

/** Saves V8's code for everything the bundle has compiled so far as its code cache. */
export function writeCodeCache({ script, source }: LoadedBundle, dir: string): number {
  const data = script.createCachedData();
  const target = path.join(dir, CODE_CACHE);
  writeFileSync(`${target}.tmp`, Buffer.concat([MAGIC, digest(source, data), data]));
  renameSync(`${target}.tmp`, target);
  return data.length;
}
