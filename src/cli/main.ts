import { writeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { dispatchesToSearch } from "./dispatch.js";
import { helpRequest, printBuiltHelp } from "./fast-help.js";
import { VERSION } from "./version.js";

const argv = process.argv.slice(2);
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
} else if (help !== undefined && printBuiltHelp(dir, help, process.env)) {
  // Printed as the build rendered it.
} else {
  // The bundle is a file of its own (kept as written by the build, build/plugins.ts, distApart),
  // so --version reads and compiles none of it. A search has a bundle of its own, without the
  // other commands (src/cli/start-search.ts).
  const bundle = (
    dispatchesToSearch(argv)
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
        require("./search.cjs")
      : // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
        require("./bundle.cjs")
  ) as typeof import("./start.js");
  // main never throws: every failure is an exit code.
  void bundle.main(argv);
}
