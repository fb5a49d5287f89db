import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers/cli.js";
import { SQLITE } from "./helpers/snapshot.js";

// The last file the build writes (build/render-help.mjs, after the bundles).
const BUILT = path.join(ROOT, "dist", "help.json");
// The bundled sample too: the build indexes it (dist/sample-index.json).
const INPUTS = ["src", "build", "tsup.config.ts", "package.json", "fixtures/dataset.json"];

/** The newest modification time under `file` (a file or a folder). */
function newest(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file).map((name) => newest(path.join(file, name))));
}

/**
 * Builds the CLI once before the end-to-end tests when dist/ is missing or older than its
 * sources (`npm test` has just built it; `npx vitest` alone may not have). One build for the
 * whole run: a build inside a test file would replace dist/ under the CLIs other test files
 * are running at the same time.
 */
export default function setup(): () => void {
  build();
  // On a Node.js without node:sqlite the snapshot suites skip: the summary's "skipped" says how
  // many, this says why and how to run them (finding N20).
  return () => {
    if (!SQLITE)
      process.stderr.write(
        `\nNode.js ${process.versions.node} has no node:sqlite: the snapshot suites (data pull, data import mcd into a .db, snapshot stores, MCP over a snapshot) were skipped. Run \`npm test\` on Node.js 22.13 or newer, or .ci/run for every major, to run them.\n`,
      );
  };
}

function build(): void {
  let built = 0;
  try {
    built = statSync(BUILT).mtimeMs;
  } catch {
    // Not built.
  }
  if (built > Math.max(...INPUTS.map((input) => newest(path.join(ROOT, input))))) return;
  execFileSync(
    process.execPath,
    [path.join(ROOT, "node_modules", "tsup", "dist", "cli-default.js")],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}
