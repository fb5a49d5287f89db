import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
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

describe("the built CLI: one CommonJS bundle, started with Node's compile cache", () => {
  it("ES-module-only packages are loaded with import(), never require()", () => {
    // Node 20 before 20.19 cannot require an ES module.
    const source = readFileSync(path.join(DIST, "bundle.cjs"), "utf8");
    for (const name of ESM_ONLY) {
      expect(source).not.toContain(`require("${name}")`);
      expect(source).toContain(`import("${name}")`);
    }
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
    // Loaded on first use (build/plugins.ts, lazyZod): its functions are not in the bundle a
    // search reads and compiles; parsed by the build-time parsers, a search never needs them.
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

  // Node 20, 22 and 24 where they can be found (the one running the tests, PATH, .ci/run's):
  // Node 20 has no compile cache, 22 and 24 fill it on the first run and read it on the next.
  const nodes = findNodes();
  const cases = [...nodes].flatMap(([major, node]) => [
    [`Node ${major}`, node, {}],
    ...(major >= 22
      ? [[`Node ${major}, the cache turned off`, node, { NODE_DISABLE_COMPILE_CACHE: "1" }]]
      : []),
  ]) as [string, string, Record<string, string>][];
  it.each(cases)("%s: the first run and the next answer the same", async (_, node, env) => {
    const expected = await runCoverage(MAIN_JOB);
    expect(expected.exitCode).toBe(0);
    const { root, run } = copyInstall("coverage-compile-cache-");
    // A cache folder of this test's own (Node's is in the temporary folder).
    const tmp = path.join(root, "tmp");
    mkdirSync(tmp);
    for (const time of ["first", "next"]) {
      const r = await run(MAIN_JOB, { node, env: { ...env, TMPDIR: tmp } });
      expect([time, r.exitCode, r.stdout, r.stderr]).toEqual([
        time,
        0,
        expected.stdout,
        expected.stderr,
      ]);
    }
  });

  it("a bundle changed after a run cached it runs as changed, not as cached", async () => {
    // Same length on purpose: a cache checked by length alone would run the old code.
    const { root, run } = copyInstall("coverage-stale-");
    const tmp = path.join(root, "tmp");
    mkdirSync(tmp);
    const job = ["--local", "search", "--json"];
    const before = await run(job, { env: { TMPDIR: tmp } });
    expect((JSON.parse(before.stdout) as { data: unknown[] }).data).toHaveLength(20);
    // A search runs the search's own bundle (src/cli/start-search.ts).
    const bundle = path.join(root, "dist", "search.cjs");
    const source = readFileSync(bundle, "utf8");
    expect(source).toContain("slicePage(items,limit=20,");
    writeFileSync(bundle, source.replace("slicePage(items,limit=20,", "slicePage(items,limit=30,"));
    const r = await run(job, { env: { TMPDIR: tmp } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { data: unknown[] }).data).toHaveLength(30);
  });

  it.each([
    ["cli.cjs", MAIN_JOB],
    ["search.cjs", MAIN_JOB],
    ["bundle.cjs", ["--local", "payers"]],
  ])(
    "without dist/%s (not built, or built before a change of the build) it says how to build",
    async (file, job) => {
      const { root, run } = copyInstall("coverage-unbuilt-");
      rmSync(path.join(root, "dist", file));
      const r = await run(job);
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
    // child_process: commander's, behind a stand-in (build/plugins.ts). The ESM loader: the shim
    // is CommonJS (bin/package.json). HTTP: only the HTTP backend, downloads and serve. Streams
    // and net: output to /dev/null goes to the descriptor, an unused pipe (stderr) is never set
    // up (src/cli/std-output.ts); crypto: temporary names come from Web Crypto.
    for (const name of [
      "child_process",
      "zlib",
      "crypto",
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
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-help-"));
    const preload = path.join(dir, "report-bundle.cjs");
    const bundle = JSON.stringify(path.join(DIST, "bundle.cjs"));
    // Whether the run loaded the bundle, on stderr's last line.
    writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeSync(2, "\\nbundle: " + (${bundle} in require.cache)));`,
    );
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const r = await execa("node", ["--require", preload, BIN, ...args], {
        reject: false,
        extendEnv: false,
        env: cleanEnv(env),
        stdin: "ignore",
      });
      const lines = r.stderr.split("\n");
      return { ...r, stderr: lines.slice(0, -2).join("\n"), bundle: lines.at(-1) };
    };
    for (const args of [["--help"], ["-h"], ["search", "--help"], ["data", "build", "-h"]]) {
      const fast = await run(args);
      // Forced colour is one case the CLI itself answers.
      const full = await run(args, { FORCE_COLOR: "0" });
      expect([fast.exitCode, fast.stderr, fast.bundle]).toEqual([0, "", "bundle: false"]);
      expect([full.exitCode, full.bundle]).toEqual([0, "bundle: true"]);
      expect(fast.stdout).toBe(full.stdout);
      expect(fast.stdout).toContain("Usage: coverage");
    }
    // Not a command of the tree: the CLI answers it itself.
    expect((await run(["nosuch", "--help"])).bundle).toBe("bundle: true");
  });
});
