import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, cleanEnv } from "../helpers/cli.js";
import { countStartupWork } from "../helpers/startup-work.js";

// The start-up budget of the main job, counted rather than timed (timings live in bench/):
// what V8 compiles and what Node loads are the same numbers on an idle or a loaded machine,
// and on Node 20, 22 and 24 alike. A change that puts more work on a search's path (a module
// loaded, schemas built, the sample checked again) fails here; docs/performance.md
// ("Start-up") says how the budgets were set and what to do when one is hit.
const SEARCH = ["--local", "search", "--code", "CPT:97110", "--state", "CA"];
const CASES = [
  // Measured on 2026-11-29 (Node 20, 22, 24; dist built by Node 22): 545-546 functions,
  // 225-236 KB. With Node's compile cache off, as here, the functions and module wrappers the
  // build made eager (build/eager-functions.mjs: the table's and a snapshot search's among
  // them) compile with the bundle's top level, so they count whether this run calls them or
  // not; a build by Node 20 makes fewer eager (no snapshot search), and counts fewer.
  { name: "--json", args: [...SEARCH, "--json"], functions: 560, functionBytes: 245_000 },
  // 609-610 functions, 229-241 KB.
  { name: "a table", args: SEARCH, functions: 625, functionBytes: 250_000 },
];
/**
 * The JavaScript files a search reads: the shim, the entry and the search's own bundle (none
 * of the other commands' code: src/cli/start-search.ts), and no other.
 */
const SCRIPTS = ["bin/coverage.js", "dist/cli.cjs", "dist/search.cjs"];
// 316 KB on 2026-11-29: the search's own bundle (dist/bundle.cjs, every command, is 727 KB).
const SCRIPT_BYTES = 340_000;
/** The package's files read besides the scripts: the sample as the build indexed it, not the dataset. */
const DATA_READ = ["dist/sample-index.json"];
/** Built-in modules beyond those Node loads to run an empty CommonJS file (5-7 today). */
const BUILTINS = 8;

describe("the main job's start-up budget (counted, not timed)", () => {
  const env = cleanEnv();
  let baseline: Promise<Set<string>> | undefined;
  const emptyFileBuiltins = () =>
    (baseline ??= (async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-budget-"));
      const empty = path.join(dir, "empty.cjs");
      writeFileSync(empty, "");
      return new Set((await countStartupWork(process.execPath, [empty], env)).builtins);
    })());

  it.each(CASES)(
    "coverage search --code CPT:97110 --state CA as $name, bundled sample, output to /dev/null",
    async ({ args, functions, functionBytes }) => {
      const work = await countStartupWork(process.execPath, [BIN, ...args], env);
      expect(work.exitCode).toBe(0);
      const known = await emptyFileBuiltins();
      const builtins = work.builtins.filter((name) => !known.has(name));
      // Every figure in the message, so a failure says what grew.
      const report = JSON.stringify({ ...work, builtins }, null, 1);
      expect(
        work.scripts.map((file) => path.relative(ROOT, file)),
        report,
      ).toEqual(SCRIPTS);
      expect(work.scriptBytes, report).toBeLessThanOrEqual(SCRIPT_BYTES);
      // The package's own files (the config file, outside it, may be read too).
      const read = work.filesRead
        .filter((file) => !work.scripts.includes(file))
        .map((file) => path.relative(ROOT, file))
        .filter((file) => !file.startsWith(".."));
      expect(read, report).toEqual(DATA_READ);
      expect(work.functions, report).toBeLessThanOrEqual(functions);
      expect(work.functionBytes, report).toBeLessThanOrEqual(functionBytes);
      expect(builtins.length, report).toBeLessThanOrEqual(BUILTINS);
    },
  );

  it("the files every start reads are ASCII (one other character makes Node decode the bundle into a two-byte string and encode it back to hash it: ~10 M instructions)", () => {
    for (const file of ["bin/coverage.js", "dist/cli.cjs", "dist/bundle.cjs", "dist/search.cjs"]) {
      const text = readFileSync(path.join(ROOT, file), "latin1");
      const at = [...text].findIndex((c) => c.charCodeAt(0) > 0x7f);
      expect(
        at === -1 ? "" : `${file}: ${JSON.stringify(text.slice(Math.max(0, at - 60), at + 20))}`,
      ).toBe("");
    }
  });

  it("the functions a search runs are compiled with the bundle's top level, so Node's compile cache holds them (build/eager-functions.mjs)", () => {
    // esbuild writes no such statement itself: each is one the build made eager. 217 and 221
    // on 2026-11-29; a build that found none leaves the bundle as it was (and warns).
    for (const file of ["search.cjs", "bundle.cjs"]) {
      const bundle = readFileSync(path.join(ROOT, "dist", file), "utf8");
      expect(bundle.match(/var [\w$]+=\((async )?function/g)?.length ?? 0).toBeGreaterThan(150);
    }
  });
});
