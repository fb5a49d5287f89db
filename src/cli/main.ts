import { writeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readCodePath } from "../code-path.js";
import { helpRequest, printBuiltHelp } from "./fast-help.js";
import { VERSION } from "./version.js";

const argv = process.argv.slice(2);
const { env } = process;
const dir = path.dirname(fileURLToPath(import.meta.url));
const help = helpRequest(argv);

// Fast path: `--version` alone is answered before the CLI itself is loaded.
if (argv.length === 1 && argv[0] === "--version") {
  // Straight to the file descriptor: process.stdout would set up Node's streams, ~4 ms of a
  // 22 ms `node -e 0` on Node 22.
  try {
    writeSync(1, `${VERSION}\n`);
  } catch {
    process.stdout.write(`${VERSION}\n`);
  }
} else if (help !== undefined && printBuiltHelp(dir, help, env)) {
  // Printed as the build rendered it.
} else {
  // The loader is its own file (dist/load-bundle.cjs), so --version loads neither it nor the
  // built-ins it needs (fs, vm, zlib): on Node 22, ~5 ms of a 22 ms `node -e 0`.
  // A plain require, kept as written by the build (tsup.config.ts, distApart): node:module
  // (for createRequire) was ~0.5 ms of every start. The bundle gets the same require (the same
  // folder). Node's compile cache is turned on only for what it helps (src/compile-cache.ts).
  const { codeCacheDir, loadBundle } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    require("./load-bundle.cjs") as typeof import("./load-bundle.js");
  const { bundle } = loadBundle(dir, {
    require,
    useCache: !env.COVERAGE_NO_CODE_CACHE,
    cacheDir: () => codeCacheDir(env),
    // The subcommand, roughly (the first word that could be one), and a code path of its own
    // if the run took one (a snapshot's): what a cache has code for.
    tag: () => {
      const word = argv.find((arg) => /^[a-z]+$/.test(arg)) ?? "help";
      const codePath = readCodePath();
      return codePath ? `${word}+${codePath}` : word;
    },
    report: env.COVERAGE_DEBUG_CODE_CACHE
      ? (use) => process.stderr.write(`coverage: code cache ${JSON.stringify(use)}\n`)
      : undefined,
  });
  // runCli never throws: every failure is an exit code.
  void bundle.main(argv);
}
