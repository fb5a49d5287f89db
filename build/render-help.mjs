// Runs after every build (tsup's onSuccess): renders every command's `--help` as the CLI prints
// it to a pipe (dist/help.json), which dist/cli.cjs prints without loading the CLI
// (src/cli/fast-help.ts; its gain is in docs/performance.md, "Start-up").
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";

const dist = path.join(import.meta.dirname, "..", "dist");
const bundle = createRequire(import.meta.url)("../dist/bundle.cjs");

/** A stream that keeps what is written to it in `chunks`. */
function collect(chunks) {
  return new Writable({
    write: (chunk, _enc, done) => {
      chunks.push(chunk);
      done();
    },
  });
}

// No config file (an empty folder): the rendering reads nothing of the user's.
const configDir = mkdtempSync(path.join(os.tmpdir(), "coverage-help-"));
const env = { COVERAGE_CONFIG_DIR: configDir, NO_COLOR: "1" };

/** Runs the CLI in this process, its output into `stdout`; throws when it fails or warns. */
async function run(argv, stdout) {
  const stderr = [];
  const code = await bundle.runCli(argv, {
    env,
    stdout,
    stderr: collect(stderr),
    signal: new AbortController().signal,
  });
  if (code !== 0 || stderr.length > 0)
    throw new Error(`coverage ${argv.join(" ")} exited ${code}: ${stderr.join("")}`);
}

/** Every command's words (`[]` for the root, `["data", "build"]`), in the tree's order. */
function commandPaths(command, words = []) {
  return [words, ...command.commands.flatMap((sub) => commandPaths(sub, [...words, sub.name()]))];
}

const helps = {};
try {
  // As printed to a pipe or a file (where the fast path prints it): commander wraps help to a
  // terminal's width, and this build may run in one.
  Object.defineProperty(process.stdout, "isTTY", { value: false, configurable: true });
  const program = bundle.createProgram({ env });
  for (const words of commandPaths(program)) {
    const chunks = [];
    await run([...words, "--help"], collect(chunks));
    helps[words.join(" ")] = Buffer.concat(chunks).toString("utf8");
  }
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
writeFileSync(path.join(dist, "help.json"), JSON.stringify(helps));
