// Runs after every build (tsup's onSuccess): loads the freshly built CLI, runs its most common
// commands once in this process with their output discarded, then saves V8's compiled code for
// everything that ran as dist/bundle.cache, which dist/cli.cjs hands to V8 on every start.
// V8 takes a cache only from the same V8 version and flags; otherwise it compiles as usual.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";

const dist = path.join(import.meta.dirname, "..", "dist");
const { loadBundle, writeCodeCache } = createRequire(import.meta.url)("../dist/load-bundle.cjs");

const loaded = loadBundle(dist, { useCache: false });
const discard = () => new Writable({ write: (_chunk, _enc, done) => done() });
// No config file (an empty folder): the warm-up reads nothing of the user's.
const configDir = mkdtempSync(path.join(os.tmpdir(), "coverage-code-cache-"));
const env = { COVERAGE_CONFIG_DIR: configDir, NO_COLOR: "1" };
const main = ["--local", "search", "--code", "CPT:97110", "--state", "CA"];
try {
  for (const argv of [main, [...main, "--json"]]) {
    const stderr = [];
    const sink = new Writable({ write: (chunk, _enc, done) => done(stderr.push(chunk)) });
    const code = await loaded.bundle.runCli(argv, {
      env,
      stdout: discard(),
      stderr: sink,
      signal: new AbortController().signal,
    });
    if (code !== 0) throw new Error(`warm-up ${argv.join(" ")} exited ${code}: ${stderr.join("")}`);
  }
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
const bytes = writeCodeCache(loaded, dist);
console.log(`code cache: dist/bundle.cache, ${Math.round(bytes / 1024)} KB`);
