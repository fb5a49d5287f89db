#!/usr/bin/env node
// Thin shim: the CLI itself is bundled into dist/ by `npm run build` (run by `npm install`).
try {
  require("../dist/cli.cjs");
} catch (err) {
  // dist/ missing or from before a change of the build (a pull without `npm install`).
  const path = require("node:path");
  const dist = path.join(__dirname, "..", "dist");
  const missing = [err?.path, err?.message].some(
    (s) => typeof s === "string" && /[\\/]dist[\\/](cli|bundle)\.cjs/.test(s),
  );
  if (!missing || !["ENOENT", "MODULE_NOT_FOUND"].includes(err.code)) throw err;
  process.stderr.write(
    `error: coverage is not built (${dist} lacks the CLI)\n` +
      `Run \`npm install\` (or \`npm run build\`) in ${path.dirname(dist)}.\n`,
  );
  process.exitCode = 1;
}
