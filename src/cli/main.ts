import path from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "./version.js";
import { loadBundle } from "./load-bundle.js";

const argv = process.argv.slice(2);

// Fast path: `--version` alone is answered before the CLI itself is loaded.
if (argv.length === 1 && argv[0] === "--version") {
  process.stdout.write(`${VERSION}\n`);
} else {
  // runCli never throws: every failure is an exit code.
  void loadBundle(path.dirname(fileURLToPath(import.meta.url))).bundle.main(argv);
}
