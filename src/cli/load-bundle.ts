import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  type Stats,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { isAscii } from "node:buffer";
import path from "node:path";
import vm from "node:vm";
import { crc32 } from "../crc32.js";
import type * as Start from "./start.js";

/** What dist/bundle.cjs (built from src/cli/start.ts) exports. */
export type Bundle = typeof Start;

/** Which code cache V8 was given, and whether it took it. */
export interface CodeCacheUse {
  /** `shipped`: dist/bundle.cache; `user`: the user's cache folder; `none`: compiled from source. */
  from: "shipped" | "user" | "none";
  /** V8 refused the cache it was given (never true when `from` is `none`). */
  rejected: boolean;
}

export interface LoadedBundle {
  bundle: Bundle;
  script: vm.Script;
  /** The bundle's bytes, as compiled. */
  source: Buffer;
  /** The bundle file's identity for a user cache (fileId). */
  fileId: Buffer;
  cache: CodeCacheUse;
}

export interface LoadOptions {
  /** The bundle's `require` (one of a module in `dir`); by default one made for it. */
  require?: NodeJS.Require;
  /** false: compile from source and leave every cache alone (the build's warm-up). */
  useCache?: boolean;
  /**
   * The folder of caches made on this machine for a V8 the shipped cache is not for (asked
   * only when it is needed); undefined: none is read or written.
   */
  cacheDir?: () => string | undefined;
  /**
   * What kind of run this is (a subcommand, and a code path of its own such as a snapshot's),
   * asked at exit: a cache made by runs of other kinds lacks this one's code, so it is
   * refreshed once then.
   */
  tag?: string | (() => string);
  /** Called at exit with what happened (a debugging hook); never when useCache is false. */
  report?: (use: CodeCacheUse & { key: string; wrote?: string }) => void;
}

const BUNDLE = "bundle.cjs";
const CODE_CACHE = "bundle.cache";

// CommonJS's own wrapper, plus the import() the bundle cannot run itself (src/import-esm.ts).
// The prefix stays on the first line, so line numbers in stack traces are the file's.
const wrap = (source: string) =>
  `(function (exports, require, module, __filename, __dirname, __importEsm) { ${source}\n})`;

const importEsm = (specifier: string): Promise<unknown> => import(specifier);

// A cache file is MAGIC; a line with the key of the V8 that made it (version, architecture,
// flags); a line of tags (the kinds of run it has code for); the bundle's length and CRC-32
// and the V8 data's CRC-32; the data. V8 checks a cache only against the source's length and
// its own version and flags, and release builds of V8 do not check the data itself: a cache
// left beside a changed bundle of the same length would run the old code, and a damaged one
// crashes the process. The checksums (~0.5 ms) rule out both (mishaps, not attacks: whoever
// can write the cache can write the bundle); the key lets the loader skip a cache made by
// another V8 without asking V8. zlib's CRC-32 rather than a hash of node:crypto, which took
// a few ms of every start to load.
const MAGIC = Buffer.from("coverage-code-cache-3\n");
const DIGEST_SIZE = 12;
// A cache refreshed for each new kind of run stops growing here (a bound on the rewrites).
const MAX_TAGS = 16;
// Caches of other bundles (older installs) are removed once this old.
const STALE_MS = 30 * 24 * 3600 * 1000;

/** The bundle's identity in the shipped cache: its length and CRC-32. */
function sourceId(source: Buffer): Buffer {
  const id = Buffer.alloc(8);
  id.writeUInt32BE(source.length, 0);
  id.writeUInt32BE(crc32(source), 4);
  return id;
}

/**
 * The bundle's identity in a user cache: its length, and a CRC-32 of where and when it was
 * written. Any change of the file makes a new one (a rewrite changes its ctime, which nothing
 * sets back), with no pass over its bytes: CRC-32 of the whole bundle was ~0.7 ms of each start.
 * The shipped cache cannot use it (an install writes the files anew), so it keeps the CRC.
 */
function fileId(stat: Stats): Buffer {
  const id = Buffer.alloc(8);
  id.writeUInt32BE(stat.size >>> 0, 0);
  id.writeUInt32BE(crc32(`${stat.dev}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`), 4);
  return id;
}

/** The checksum block of a cache: the bundle's identity, then the data's CRC-32. */
function digestOf(id: Buffer, data: Uint8Array): Buffer {
  const digest = Buffer.alloc(DIGEST_SIZE);
  id.copy(digest, 0);
  digest.writeUInt32BE(crc32(data), 8);
  return digest;
}

// Node's own options, which leave V8's flags alone (so the shipped cache still fits); with a
// value of their own when not written as --name=value. Any other option is taken as one that
// may set a V8 flag: at worst such a run makes its own cache instead of using the shipped one.
const NODE_ONLY =
  /^(-[epr]|--(eval|print|require|import|input-type|title|enable-source-maps|no-warnings|(cpu|heap)-prof.*|inspect.*))(=|$)/;
const WITH_VALUE =
  /^(-[epr]|--(eval|print|require|import|input-type|title|(cpu|heap)-prof-(dir|name|interval)))$/;

/**
 * The V8 this process runs: a cache is valid only for the same version, CPU and V8 flags (Node
 * options such as --max-old-space-size set some), so such options go into the key as a hash.
 */
export function codeCacheKey(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? "",
): string {
  const options: string[] = [];
  const argv = [...execArgv, ...nodeOptions.split(/\s+/)];
  for (let i = 0; i < argv.length; i++) {
    if (WITH_VALUE.test(argv[i]!)) i++;
    else if (argv[i] && !NODE_ONLY.test(argv[i]!)) options.push(argv[i]!);
  }
  const key = `${process.versions.v8}-${process.arch}`;
  if (options.length === 0) return key;
  return `${key}-${crc32(options.join("\0")).toString(16).padStart(8, "0")}`;
}

let ownKey: string | undefined;
/** This process's codeCacheKey, worked out once (a start asks for it up to four times). */
const processKey = (): string => (ownKey ??= codeCacheKey());

interface CacheFile {
  key: string;
  tags: string[];
  data: Buffer;
}

function encodeCache({ key, tags, data }: CacheFile, sourceDigest: Buffer): Buffer {
  const header = Buffer.from(`${key}\n${tags.join(",")}\n`);
  return Buffer.concat([MAGIC, header, digestOf(sourceDigest, data), data]);
}

// What a cache's first lines take at most (magic, key, tags): read first, so that a cache made
// by another V8 (the shipped one, on any Node but the publisher's) costs no read of its data.
const HEAD_SIZE = 512;

/** The whole of `file` if it starts with this V8's key; undefined if not (or unreadable). */
function readIfKeyed(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.allocUnsafe(HEAD_SIZE);
    const got = readSync(fd, head, 0, HEAD_SIZE, 0);
    const view = head.subarray(0, got);
    const expected = Buffer.from(`${processKey()}\n`);
    if (!view.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    if (!view.subarray(MAGIC.length, MAGIC.length + expected.length).equals(expected))
      return undefined;
    const size = fstatSync(fd).size;
    const bytes = Buffer.allocUnsafe(size);
    head.copy(bytes, 0, 0, Math.min(got, size));
    let done = Math.min(got, size);
    while (done < size) {
      const n = readSync(fd, bytes, done, size - done, done);
      if (n === 0) return undefined; // cut short while we read: a rename replaced it, say
      done += n;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The cache in `file` if this V8 made it from the bundle whose identity is `bundleId`. */
function readCache(file: string, bundleId: () => Buffer): CacheFile | undefined {
  const bytes = readIfKeyed(file);
  if (bytes === undefined) return undefined;
  const keyEnd = bytes.indexOf(10, MAGIC.length);
  const tagsEnd = keyEnd < 0 ? -1 : bytes.indexOf(10, keyEnd + 1);
  if (tagsEnd < 0 || bytes.length <= tagsEnd + 1 + DIGEST_SIZE) return undefined;
  // readIfKeyed has checked the key.
  const key = bytes.toString("latin1", MAGIC.length, keyEnd);
  const data = bytes.subarray(tagsEnd + 1 + DIGEST_SIZE);
  const digest = bytes.subarray(tagsEnd + 1, tagsEnd + 1 + DIGEST_SIZE);
  if (!digestOf(bundleId(), data).equals(digest)) return undefined;
  const tags = bytes.toString("utf8", keyEnd + 1, tagsEnd);
  return { key, tags: tags === "" ? [] : tags.split(","), data };
}

/**
 * The bundle's text. The build keeps it ASCII (esbuild escapes strings; a test checks the rest),
 * and ASCII read as Latin-1 is a one-byte string made by a copy: a bundle with one non-ASCII
 * character was decoded into a two-byte string of twice the size (~2 ms).
 */
function decodeSource(source: Buffer): string {
  return source.toString(isAscii(source) ? "latin1" : "utf8");
}

/** The user cache's file name for this V8 and this bundle file. */
function userCacheName(bundleId: Buffer): string {
  return `bundle-${processKey()}-${bundleId.toString("hex")}.cache`;
}

/** Writes `bytes` to `file` through a temporary file and a rename: never a partial cache. */
function writeAtomically(file: string, bytes: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, bytes);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** Removes other bundles' caches that nothing has written for a month (older installs). */
function removeStaleCaches(dir: string, keep: string): void {
  for (const name of readdirSync(dir)) {
    if (name === keep || !/^bundle-.*\.cache$/.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

/**
 * Compiles and runs the bundled CLI in `dir` with V8's code for it: the build's `bundle.cache`
 * when this V8 made it, else one this machine made earlier in `cacheDir`, which is written or
 * refreshed at exit (after the command's work; any failure, a read-only folder say, is
 * ignored). Without a cache that fits, the bundle compiles as usual.
 */
export function loadBundle(
  dir: string,
  { require, useCache = true, cacheDir, tag = "", report }: LoadOptions = {},
): LoadedBundle {
  // Node 20 keeps no compiled code between runs (module.enableCompileCache is Node 22), and
  // compiling the CLI's modules is a third of a local search's start: a script can take V8's
  // code cache, a module cannot.
  const file = path.join(dir, BUNDLE);
  // The identity and the bytes of one file, whatever replaces it meanwhile.
  const fd = openSync(file, "r");
  let source: Buffer;
  let userId: Buffer;
  try {
    userId = fileId(fstatSync(fd));
    source = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  let digest: Buffer | undefined;
  const sourceDigest = () => (digest ??= sourceId(source));

  let from: CodeCacheUse["from"] = "none";
  let cached: CacheFile | undefined;
  let userDir: string | undefined;
  if (useCache) {
    cached = readCache(path.join(dir, CODE_CACHE), sourceDigest);
    if (cached) from = "shipped";
    else {
      userDir = cacheDir?.();
      cached = userDir
        ? readCache(path.join(userDir, userCacheName(userId)), () => userId)
        : undefined;
      if (cached) from = "user";
    }
  }
  const script = new vm.Script(wrap(decodeSource(source)), {
    filename: file,
    cachedData: cached?.data,
  });
  const cache: CodeCacheUse = {
    from,
    rejected: cached !== undefined && script.cachedDataRejected === true,
  };
  const loaded = { bundle: {} as Bundle, script, source, fileId: userId, cache };

  if (useCache && (from !== "shipped" || report))
    process.once("exit", () => {
      // The shipped cache is left as it is; a user cache is (re)written when there was none,
      // V8 refused it, or it lacks this kind of run (known only now: a snapshot's, say).
      const kind = typeof tag === "function" ? tag() : tag;
      const refresh =
        from !== "shipped" &&
        (from === "none" ||
          cache.rejected ||
          (kind !== "" && !cached!.tags.includes(kind) && cached!.tags.length < MAX_TAGS));
      let wrote: string | undefined;
      if (refresh && userDir) {
        const tags = [...(cache.rejected ? [] : (cached?.tags ?? [])), kind].filter(Boolean);
        wrote = saveUserCache(loaded, userDir, [...new Set(tags)]);
      }
      report?.({ ...cache, key: processKey(), wrote });
    });

  const module = { exports: {} as Bundle };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const bundleRequire =
    require ??
    (process.getBuiltinModule("node:module") as typeof import("node:module")).createRequire(file);
  run(module.exports, bundleRequire, module, file, dir, importEsm);
  loaded.bundle = module.exports;
  return loaded;
}

/** Saves the loaded bundle's compiled code in `dir`; the file written, undefined if it failed. */
function saveUserCache(loaded: LoadedBundle, dir: string, tags: string[]): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    const digest = loaded.fileId;
    const name = userCacheName(digest);
    const file = path.join(dir, name);
    const data = loaded.script.createCachedData();
    writeAtomically(file, encodeCache({ key: processKey(), tags, data }, digest));
    removeStaleCaches(dir, name);
    return file;
  } catch {
    // A read-only or full disk: the next run compiles again, as this one did.
    return undefined;
  }
}

/** Saves V8's code for everything the bundle has compiled so far as its shipped code cache. */
export function writeCodeCache({ script, source }: LoadedBundle, dir: string): number {
  const data = script.createCachedData();
  const bytes = encodeCache({ key: processKey(), tags: [], data }, sourceId(source));
  writeAtomically(path.join(dir, CODE_CACHE), bytes);
  return data.length;
}

/**
 * The folder of code caches made on this machine: COVERAGE_CODE_CACHE_DIR, else
 * `coverage/code-cache` in XDG_CACHE_HOME or ~/.cache; undefined when COVERAGE_NO_CODE_CACHE
 * is set (the CLI then uses no cache at all) or there is no home.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.COVERAGE_CODE_CACHE_DIR) return path.resolve(env.COVERAGE_CODE_CACHE_DIR);
  const base = env.XDG_CACHE_HOME || (env.HOME && path.join(env.HOME, ".cache"));
  return base ? path.join(base, "coverage", "code-cache") : undefined;
}
