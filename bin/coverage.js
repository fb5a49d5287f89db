#!/usr/bin/env node
// Thin shim: the CLI itself is bundled into dist/ by `npm run build` (run by `npm install`).
// Node's own cache of compiled code (Node 22.1+; kept in NODE_COMPILE_CACHE, else the system's
// temporary folder): a start reads V8's code for the bundle instead of compiling it. Node 20
// has no such cache and compiles as usual; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
// `--version` alone reads no bundle (dist/cli.cjs answers it), and setting the cache up cost it
// ~3% of `node -e 0` on Node 24 (docs/performance.md, "Start-up").
if (process.argv.length !== 3 || process.argv[2] !== "--version") {
  const { enableCompileCache } = require("node:module");
  if (typeof enableCompileCache === "function") enableCompileCache();
}
try {
  require("../dist/cli.cjs");
} catch (err) {
  // dist/ missing or from before a change of the build (a pull without `npm install`).
  const path = require("node:path");
  const dist = path.join(__dirname, "..", "dist");
  const missing = [err?.path, err?.message].some(
    (s) => typeof s === "string" && /[\\/]dist[\\/](cli|bundle|search)\.cjs/.test(s),
  );
  if (!missing || !["ENOENT", "MODULE_NOT_FOUND"].includes(err.code)) throw err;
  process.stderr.write(
    `error: coverage is not built (${dist} lacks the CLI)\n` +
      `Run \`npm install\` (or \`npm run build\`) in ${path.dirname(dist)}.\n`,
  );
  process.exitCode = 1;
}
