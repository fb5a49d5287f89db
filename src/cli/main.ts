import path from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "./version.js";
import { codeCacheDir, loadBundle } from "./load-bundle.js";

const argv = process.argv.slice(2);
const { env } = process;

// Fast path: `--version` alone is answered before the CLI itself is loaded.
if (argv.length === 1 && argv[0] === "--version") {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { bundle } = loadBundle(path.dirname(fileURLToPath(import.meta.url)), {
    useCache: !env.COVERAGE_NO_CODE_CACHE,
    cacheDir: () => codeCacheDir(env),
    // The subcommand, roughly (the first word that could be one): what a cache has code for.
    tag: argv.find((arg) => /^[a-z]+$/.test(arg)) ?? "help",
    report: env.COVERAGE_DEBUG_CODE_CACHE
      ? (use) => process.stderr.write(`coverage: code cache ${JSON.stringify(use)}\n`)
      : undefined,
  });
  // runCli never throws: every failure is an exit code.
  void bundle.main(argv);
}
