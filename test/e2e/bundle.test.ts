import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, cleanEnv, runCoverage } from "../helpers/cli.js";
import { findNodes } from "../helpers/nodes.js";

const DIST = path.join(ROOT, "dist");
const ESM_ONLY = ["chalk", "conf", "marked", "marked-terminal", "ora"];
const MAIN_JOB = ["--local", "search", "--code", "CPT:97110", "--state", "CA", "--json"];

/** Runs a CommonJS snippet with `loadBundle` from the built loader in scope; returns its stdout. */
async function withLoader(body: string): Promise<string> {
  const loader = JSON.stringify(path.join(DIST, "load-bundle.cjs"));
  const r = await execa("node", ["-e", `const { loadBundle } = require(${loader});\n${body}`]);
  return r.stdout;
}

describe("the built CLI: one script compiled with V8's code cache", () => {
  it("the bundle holds no import() but the fallback that only runs outside it", () => {
    // Inside the script Node 20 refuses import(): every ES module must come through __importEsm.
    const source = readFileSync(path.join(DIST, "bundle.cjs"), "utf8");
    const imports = [...source.matchAll(/\bimport\(/g)];
    expect(imports).toHaveLength(1);
    expect(source.slice(imports[0]!.index - 80, imports[0]!.index)).toContain("__importEsm");
    // Nor a require() of one: Node 20 before 20.19 cannot require an ES module.
    for (const name of ESM_ONLY) expect(source).not.toContain(`require("${name}")`);
  });

  it("the bundle is ASCII, so the loader reads it as a one-byte string", () => {
    // A non-ASCII character (in a regex literal or a licence comment: esbuild escapes strings)
    // made V8 hold the whole bundle as a two-byte string, ~2 ms more of every start.
    const source = readFileSync(path.join(DIST, "bundle.cjs"));
    const at = source.findIndex((byte) => byte > 0x7f);
    expect(at < 0 ? null : source.toString("utf8", at - 40, at + 10)).toBeNull();
  });

  it("zod is a file of its own, tree-shaken: the parts the contract never uses are not in it", () => {
    // `import * as z from "zod"` lets esbuild drop what no schema uses; `import { z }` (a
    // namespace object) kept all of zod: 170 KB more to cache and ~12% more instructions.
    const zod = readFileSync(path.join(DIST, "zod.cjs"), "utf8");
    expect(zod).toContain('"$ZodObject"');
    for (const unused of [
      '"$ZodBigInt"',
      '"$ZodFile"',
      '"$ZodFunction"',
      '"$ZodMap"',
      '"$ZodIBAN"',
    ])
      expect(zod).not.toContain(unused);
    // Loaded on first use (tsup.config.ts, lazyZod): its functions are not stubs of the bundle's
    // code cache, which a search, parsed by the build-time parsers, never needs.
    const bundle = readFileSync(path.join(DIST, "bundle.cjs"), "utf8");
    expect(bundle).not.toContain('"$ZodObject"');
    expect(bundle.match(/require\("\.\/zod\.cjs"\)/g)).toHaveLength(1);
  });

  it("undici is a file of its own, which only HTTP commands require", () => {
    const bundle = readFileSync(path.join(DIST, "bundle.cjs"), "utf8");
    expect(bundle).not.toContain("llhttp");
    expect(bundle.match(/require\("\.\/undici\.cjs"\)/g)).toHaveLength(1);
    expect(readFileSync(path.join(DIST, "undici.cjs"), "utf8")).toContain("llhttp");
  });

  it("V8 takes the code cache that the build made", async () => {
    const out = await withLoader(
      `const { script } = loadBundle(${JSON.stringify(DIST)});\n` +
        `console.log(JSON.stringify({ rejected: script.cachedDataRejected }));`,
    );
    expect(JSON.parse(out)).toEqual({ rejected: false });
  });

  it("every ES-module-only package loads through the loader's import()", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-bundle-"));
    const names = ESM_ONLY;
    writeFileSync(
      path.join(dir, "bundle.cjs"),
      `exports.main = (names) => Promise.all(names.map((n) => __importEsm(n)));`,
    );
    const out = await withLoader(
      `loadBundle(${JSON.stringify(dir)}).bundle.main(${JSON.stringify(names)})` +
        `.then((mods) => console.log(JSON.stringify(mods.map((m) => Object.keys(m).length > 0))));`,
    );
    expect(JSON.parse(out)).toEqual(names.map(() => true));
  });

  /** A copy of the built CLI in a new folder (named with `name`), the dependencies linked. */
  function copyInstall(name: string) {
    const root = mkdtempSync(path.join(os.tmpdir(), name));
    cpSync(path.join(ROOT, "bin"), path.join(root, "bin"), { recursive: true });
    cpSync(DIST, path.join(root, "dist"), { recursive: true });
    for (const link of ["node_modules", "fixtures", "package.json"])
      symlinkSync(path.join(ROOT, link), path.join(root, link));
    const run = (args: string[], { node = "node", env = {} as Record<string, string> } = {}) =>
      execa(node, [path.join(root, "bin", "coverage.js"), ...args], {
        reject: false,
        extendEnv: false,
        env: cleanEnv(env),
      });
    return { root, run };
  }

  it.each([
    ["no code cache", (cache: Buffer) => cache.subarray(0, 0)],
    ["a cache V8 refuses", () => Buffer.from("not V8's code")],
    // V8 itself checks only a cache's header: a damaged body would crash the process.
    [
      "a cache damaged in the middle",
      (cache: Buffer) => {
        const damaged = Buffer.from(cache);
        for (let i = cache.length >> 1; i < (cache.length >> 1) + 400; i++) damaged[i]! ^= 0x5a;
        return damaged;
      },
    ],
  ])("with %s the CLI compiles as usual and answers the same", async (_, damage) => {
    const expected = await runCoverage(MAIN_JOB);
    expect(expected.exitCode).toBe(0);
    const { root, run } = copyInstall("coverage-cache-");
    const cacheFile = path.join(root, "dist", "bundle.cache");
    const cache = damage(readFileSync(cacheFile));
    if (cache.length === 0) rmSync(cacheFile);
    else writeFileSync(cacheFile, cache);
    const r = await run(MAIN_JOB);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, expected.stdout, expected.stderr]);
  });

  it("a bundle changed after its cache was made runs as changed, not as cached", async () => {
    // Same length on purpose: V8 would take the old cache for it and run the old code.
    const { root, run } = copyInstall("coverage-stale-");
    const bundle = path.join(root, "dist", "bundle.cjs");
    const source = readFileSync(bundle, "utf8");
    expect(source).toContain("slicePage(items,limit=20,");
    writeFileSync(bundle, source.replace("slicePage(items,limit=20,", "slicePage(items,limit=30,"));
    const r = await run(["--local", "search", "--json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { data: unknown[] }).data).toHaveLength(30);
  });

  it.each(["cli.cjs", "bundle.cjs"])(
    "without dist/%s (not built, or built before a change of the build) it says how to build",
    async (file) => {
      const { root, run } = copyInstall("coverage-unbuilt-");
      rmSync(path.join(root, "dist", file));
      const r = await run(MAIN_JOB);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("error: coverage is not built");
      expect(r.stderr).toContain(`Run \`npm install\` (or \`npm run build\`) in ${root}.`);
      expect(r.stderr).not.toMatch(/^\s+at /m);
    },
  );

  it("runs from a folder whose name has #, % and ? in it", async () => {
    const expected = await runCoverage(MAIN_JOB);
    const { run } = copyInstall("coverage #1 %41?-");
    const r = await run(MAIN_JOB);
    expect([r.exitCode, r.stdout]).toEqual([0, expected.stdout]);
  });

  it("a policy on a colour terminal renders its markdown (chalk, marked, marked-terminal)", async () => {
    const command = ["node", BIN, "policy", "cms-ncd/240.4/2008-03-13"].join(" ");
    const r = await execa("script", ["-qec", command, "/dev/null"], {
      reject: false,
      extendEnv: false,
      env: cleanEnv({ COLUMNS: "100" }),
      stdin: "ignore",
    });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain("\u001b[");
    // The criteria's "- item" lists come out as marked-terminal's "* item".
    expect(r.stdout).toMatch(/^ {2}\* /m);
    expect(r.stdout).not.toMatch(/^- /m);
  });

  it("a local search loads no built-in it does not use, nor Node's ES module loader", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-modules-"));
    const preload = path.join(dir, "report-modules.cjs");
    writeFileSync(
      preload,
      // Not process.stderr, whose getter would load what is being checked.
      `process.on("exit", () => require("node:fs").writeSync(2, JSON.stringify(process.moduleLoadList)));`,
    );
    const modulesOf = async (args: string[]) => {
      // Output to /dev/null, as the bench's runs: to a pipe, Node's stream writes it.
      const r = await execa("node", ["--require", preload, ...args], {
        reject: false,
        extendEnv: false,
        env: cleanEnv(),
        stdout: "ignore",
      });
      expect(r.exitCode, r.stderr).toBe(0);
      return JSON.parse(r.stderr) as string[];
    };
    const loaded = await modulesOf([BIN, ...MAIN_JOB, "-q"]);
    expect(loaded).toContain("NativeModule fs");
    // Node 24 sets up its ES module loader for any script: only what Node itself loads to run
    // a CommonJS file that does nothing is allowed (`-e` loads node:module, a file does not).
    const empty = path.join(dir, "empty.cjs");
    writeFileSync(empty, "");
    const baseline = new Set(await modulesOf([empty]));
    // child_process: commander's, behind a stand-in (tsup.config.ts). The ESM loader: the shim
    // is CommonJS (bin/package.json). HTTP: only the HTTP backend, downloads and serve. zlib:
    // the code cache's CRC-32 comes from its binding (src/cli/load-bundle.ts). Streams and net:
    // output to /dev/null goes to the descriptor, an unused pipe (stderr) is never set up
    // (src/cli/std-output.ts). node:module: the loader is required plainly, and Node's compile
    // cache is turned on only before undici or an ES module loads (src/compile-cache.ts).
    for (const name of [
      "module",
      "child_process",
      "zlib",
      "stream",
      "net",
      "http",
      "https",
      "internal/modules/esm/module_job",
      "internal/modules/esm/translators",
    ].map((n) => `NativeModule ${n}`))
      if (!baseline.has(name)) expect(loaded).not.toContain(name);
  });

  it("a local search parses its request, its answer and a config file without loading zod", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-no-zod-"));
    // csv: the output shows the profile was read (and parsed) by the run.
    writeFileSync(
      path.join(dir, "config.json"),
      JSON.stringify({ profiles: { default: { format: "csv", timeout: "5000" } } }),
    );
    const preload = path.join(dir, "report-files.cjs");
    writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeSync(2, JSON.stringify(Object.keys(require.cache))));`,
    );
    const filesOf = async (args: string[]) => {
      const r = await execa("node", ["--require", preload, BIN, ...args], {
        reject: false,
        extendEnv: false,
        env: cleanEnv({ COVERAGE_CONFIG_DIR: dir }),
      });
      const files = JSON.parse(r.stderr.split("\n").pop()!) as string[];
      return { code: r.exitCode, stdout: r.stdout, files };
    };
    const zod = path.join(DIST, "zod.cjs");
    const search = await filesOf([
      "--local",
      "search",
      "--code",
      "CPT:97110",
      "--state",
      "CA",
      "-q",
    ]);
    expect(search.code).toBe(0);
    expect(search.stdout.split("\n")[0]).toMatch(/^policy_id,/);
    expect(search.files).not.toContain(zod);
    // A request with a mistake is worded by zod: it loads then.
    const bad = await filesOf(["--local", "search", "--state", "XX", "-q"]);
    expect(bad.code).toBe(2);
    expect(bad.files).toContain(zod);
  });

  it("--help is printed without loading the CLI, byte for byte as the CLI prints it", async () => {
    const texts = JSON.parse(readFileSync(path.join(DIST, "help.json"), "utf8")) as Record<
      string,
      string
    >;
    expect(Object.keys(texts)).toEqual(expect.arrayContaining(["", "search", "data build"]));
    const DEBUG = { COVERAGE_DEBUG_CODE_CACHE: "1" };
    for (const args of [["--help"], ["-h"], ["search", "--help"], ["data", "build", "-h"]]) {
      const fast = await runCoverage(args, { env: DEBUG });
      // Forced colour is one case the CLI itself answers (its report says it loaded).
      const full = await runCoverage(args, { env: { ...DEBUG, FORCE_COLOR: "0" } });
      expect(full.stderr).toMatch(/^coverage: code cache /);
      expect([fast.exitCode, fast.stderr]).toEqual([0, ""]);
      expect(fast.stdout).toBe(full.stdout);
      expect(fast.stdout).toContain("Usage: coverage");
    }
    // Not a command of the tree: the CLI answers it itself.
    const unknown = await runCoverage(["nosuch", "--help"], { env: DEBUG });
    expect(unknown.stderr).toMatch(/^coverage: code cache /);
  });

  describe("a code cache for the Node that runs the CLI, made on first use", () => {
    // Node 20, 22 and 24 where they can be found (the one running the tests, PATH, .ci/run's).
    const nodes = findNodes();
    const DEBUG = { COVERAGE_DEBUG_CODE_CACHE: "1" };
    /** The debug hook's report (the last stderr line). */
    const reportOf = (stderr: string) => {
      const line = stderr.trimEnd().split("\n").pop() ?? "";
      expect(line).toMatch(/^coverage: code cache /);
      return JSON.parse(line.replace(/^coverage: code cache /, "")) as Record<string, unknown>;
    };

    // dist/bundle.cache is this Node's (the build's); for another major the CLI makes its own.
    // Without the shipped cache the same path runs on this Node too.
    for (const major of [20, 22, 24]) {
      const node = nodes.get(major);
      it.skipIf(!node)(
        `Node ${major}: the first run writes one, the next run's V8 accepts it`,
        async () => {
          const expected = await runCoverage(MAIN_JOB);
          const { root, run } = copyInstall("coverage-user-cache-");
          rmSync(path.join(root, "dist", "bundle.cache"));
          const cacheDir = path.join(root, "cache");
          const env = { ...DEBUG, COVERAGE_CODE_CACHE_DIR: cacheDir };
          const first = await run(MAIN_JOB, { node, env });
          expect(first.exitCode, first.stderr).toBe(0);
          expect(first.stdout).toBe(expected.stdout);
          const wrote = reportOf(first.stderr);
          expect(wrote).toMatchObject({ from: "none", rejected: false });
          expect(path.dirname(String(wrote.wrote))).toBe(cacheDir);
          expect(readdirSync(cacheDir)).toEqual([path.basename(String(wrote.wrote))]);

          const second = await run(MAIN_JOB, { node, env });
          expect(second.stdout).toBe(expected.stdout);
          expect(reportOf(second.stderr)).toEqual({
            from: "user",
            rejected: false,
            key: wrote.key,
          });
        },
      );
    }

    it("a bundle rewritten after its cache was made (same length) runs as changed", async () => {
      // A user cache knows its bundle by the file (size, inode, times), not by its bytes.
      const { root, run } = copyInstall("coverage-user-stale-");
      rmSync(path.join(root, "dist", "bundle.cache"));
      const env = { ...DEBUG, COVERAGE_CODE_CACHE_DIR: path.join(root, "cache") };
      const job = ["--local", "search", "--json"];
      expect(reportOf((await run(job, { env })).stderr)).toMatchObject({ from: "none" });
      expect(reportOf((await run(job, { env })).stderr)).toMatchObject({ from: "user" });
      const bundle = path.join(root, "dist", "bundle.cjs");
      const source = readFileSync(bundle, "utf8");
      writeFileSync(
        bundle,
        source.replace("slicePage(items,limit=20,", "slicePage(items,limit=30,"),
      );
      const r = await run(job, { env });
      expect(reportOf(r.stderr)).toMatchObject({ from: "none" });
      expect((JSON.parse(r.stdout) as { data: unknown[] }).data).toHaveLength(30);
    });

    it("writing one removes other bundles' caches untouched for 30 days, and nothing else", async () => {
      const { root, run } = copyInstall("coverage-cache-stale-");
      rmSync(path.join(root, "dist", "bundle.cache"));
      const cacheDir = path.join(root, "cache");
      mkdirSync(cacheDir);
      const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
      for (const name of ["bundle-old.cache", "bundle-recent.cache", "notes.txt"]) {
        writeFileSync(path.join(cacheDir, name), "x");
        if (name !== "bundle-recent.cache") utimesSync(path.join(cacheDir, name), old, old);
      }
      const r = await run(MAIN_JOB, { env: { ...DEBUG, COVERAGE_CODE_CACHE_DIR: cacheDir } });
      const wrote = path.basename(String(reportOf(r.stderr).wrote));
      expect(readdirSync(cacheDir).sort()).toEqual(
        ["bundle-recent.cache", "notes.txt", wrote].sort(),
      );
    });

    it("this Node takes the shipped cache and writes none of its own", async () => {
      const { root, run } = copyInstall("coverage-shipped-cache-");
      const cacheDir = path.join(root, "cache");
      const r = await run(MAIN_JOB, { env: { ...DEBUG, COVERAGE_CODE_CACHE_DIR: cacheDir } });
      expect(reportOf(r.stderr)).toMatchObject({ from: "shipped", rejected: false });
      expect(existsSync(cacheDir)).toBe(false);
    });

    it("a cache made by another kind of run is refreshed once for this kind", async () => {
      const { root, run } = copyInstall("coverage-cache-tags-");
      rmSync(path.join(root, "dist", "bundle.cache"));
      const env = { ...DEBUG, COVERAGE_CODE_CACHE_DIR: path.join(root, "cache") };
      const reports = [];
      // `help`, not `--help`: that one is printed without loading the CLI (see below).
      for (const args of [["help"], MAIN_JOB, MAIN_JOB, ["help"]])
        reports.push(reportOf((await run(args, { env })).stderr));
      expect(reports.map((r) => [r.from, r.wrote !== undefined])).toEqual([
        ["none", true],
        ["user", true],
        ["user", false],
        ["user", false],
      ]);
    });

    // A snapshot (node:sqlite, Node 22.13+) runs code a JSON search never does.
    const sqliteNode = nodes.get(24) ?? nodes.get(22);
    it.skipIf(!sqliteNode)(
      "a search over a snapshot after searches over JSON refreshes the cache once for its code",
      async () => {
        const { root, run } = copyInstall("coverage-cache-snapshot-");
        rmSync(path.join(root, "dist", "bundle.cache"));
        const env = { ...DEBUG, COVERAGE_CODE_CACHE_DIR: path.join(root, "cache") };
        const db = path.join(root, "bundled.db");
        const built = await run(
          ["data", "build", path.join(root, "fixtures", "dataset.json"), "-o", db],
          {
            node: sqliteNode,
          },
        );
        expect(built.exitCode, built.stderr).toBe(0);
        const onSnapshot = ["--local", "--data", db, "search", "--code", "CPT:97110"];
        const reports = [];
        for (const args of [MAIN_JOB, MAIN_JOB, onSnapshot, onSnapshot])
          reports.push(reportOf((await run(args, { node: sqliteNode, env })).stderr));
        expect(reports.map((r) => [r.from, r.wrote !== undefined])).toEqual([
          ["none", true],
          ["user", false],
          ["user", true],
          ["user", false],
        ]);
      },
    );

    // root writes into a read-only folder all the same: there only the second case applies.
    it.each([
      ...(process.getuid?.() === 0
        ? []
        : [["a read-only folder", (dir: string) => (mkdirSync(dir), chmodSync(dir, 0o555), dir)]]),
      ["a path through a file", (dir: string) => (writeFileSync(dir, ""), path.join(dir, "x"))],
    ] as [string, (dir: string) => string][])(
      "a cache folder that cannot be written (%s) changes nothing",
      async (_, make) => {
        const expected = await runCoverage(MAIN_JOB);
        const { root, run } = copyInstall("coverage-cache-ro-");
        rmSync(path.join(root, "dist", "bundle.cache"));
        const cacheDir = make(path.join(root, "cache"));
        const r = await run(MAIN_JOB, { env: { COVERAGE_CODE_CACHE_DIR: cacheDir } });
        expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, expected.stdout, expected.stderr]);
        if (existsSync(cacheDir)) expect(readdirSync(cacheDir)).toEqual([]);
      },
    );

    it("COVERAGE_NO_CODE_CACHE: no cache is read or written", async () => {
      const { root, run } = copyInstall("coverage-no-cache-");
      const cacheDir = path.join(root, "cache");
      const env = { ...DEBUG, COVERAGE_CODE_CACHE_DIR: cacheDir, COVERAGE_NO_CODE_CACHE: "1" };
      const r = await run(MAIN_JOB, { env });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).not.toContain("code cache");
      expect(existsSync(cacheDir)).toBe(false);
    });
  });
});
