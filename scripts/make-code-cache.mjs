// Runs after every build (tsup's onSuccess): loads the freshly built CLI, runs its most common
// commands once in this process with their output discarded, then saves V8's compiled code for
// everything that ran as dist/bundle.cache, which dist/cli.cjs hands to V8 on every start.
// It also renders every command's `--help` as the CLI prints it to a pipe (dist/help.json):
// dist/cli.cjs prints those without loading the CLI (src/cli/fast-help.ts). The warm-up's
// search checks the bundled sample in full; once it has, the sample's length and CRC-32 go to
// dist/sample-digest.json, and a start over those same bytes skips the check
// (src/dataset/sample-digest.ts).
// V8 takes a cache only from the same V8 version and flags; otherwise it compiles as usual.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { crc32 } from "node:zlib";

const dist = path.join(import.meta.dirname, "..", "dist");
const { loadBundle, writeCodeCache } = createRequire(import.meta.url)("../dist/load-bundle.cjs");

const sampleFile = path.join(dist, "..", "fixtures", "dataset.json");
const digestFile = path.join(dist, "sample-digest.json");
// The warm-up must check the sample, not trust an earlier build's digest.
rmSync(digestFile, { force: true });
const sample = readFileSync(sampleFile);
const loaded = loadBundle(dist, { useCache: false });
const discard = () => new Writable({ write: (_chunk, _enc, done) => done() });
// No config file (an empty folder): the warm-up reads nothing of the user's.
const configDir = mkdtempSync(path.join(os.tmpdir(), "coverage-code-cache-"));
const env = { COVERAGE_CONFIG_DIR: configDir, NO_COLOR: "1" };
// --quiet: `--state CA` says on stderr that it also sends NF and SF, and this run takes any
// other line on stderr for a failure.
const main = ["--local", "--quiet", "search", "--code", "CPT:97110", "--state", "CA"];
/** A stream that keeps what is written to it in `chunks`. */
function collect(chunks) {
  return new Writable({
    write: (chunk, _enc, done) => {
      chunks.push(chunk);
      done();
    },
  });
}

/** Runs the CLI in this process, its output into `stdout`; throws when it fails or warns. */
async function run(argv, stdout = discard()) {
  const stderr = [];
  const sink = collect(stderr);
  const code = await loaded.bundle.runCli(argv, {
    env,
    stdout,
    stderr: sink,
    signal: new AbortController().signal,
  });
  if (code !== 0 || stderr.length > 0)
    throw new Error(`warm-up ${argv.join(" ")} exited ${code}: ${stderr.join("")}`);
}

/** Every command's words (`[]` for the root, `["data", "build"]`), in the tree's order. */
function commandPaths(command, words = []) {
  return [words, ...command.commands.flatMap((sub) => commandPaths(sub, [...words, sub.name()]))];
}

const helps = {};
try {
  for (const argv of [main, [...main, "--json"]]) await run(argv);
  // As printed to a pipe or a file (where the fast path prints it): commander wraps help to a
  // terminal's width, and this build may run in one.
  Object.defineProperty(process.stdout, "isTTY", { value: false, configurable: true });
  const program = loaded.bundle.createProgram({ env });
  for (const words of commandPaths(program)) {
    const chunks = [];
    const stdout = collect(chunks);
    await run([...words, "--help"], stdout);
    helps[words.join(" ")] = Buffer.concat(chunks).toString("utf8");
  }
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
writeFileSync(path.join(dist, "help.json"), JSON.stringify(helps));
// The warm-up's searches have checked the sample; recorded only if it is still those bytes.
if (readFileSync(sampleFile).equals(sample))
  writeFileSync(digestFile, JSON.stringify({ size: sample.length, crc32: crc32(sample) }));
const bytes = writeCodeCache(loaded, dist);
console.log(`code cache: dist/bundle.cache, ${Math.round(bytes / 1024)} KB`);
