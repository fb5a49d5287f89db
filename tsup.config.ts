import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";
import {
  distApart,
  lazyChildProcess,
  lazyDefaults,
  lazyZod,
  mcpApart,
  undiciApart,
  withoutZodLocales,
} from "./build/plugins.js";

const { dependencies } = JSON.parse(readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
};
const BUNDLED = ["zod", "commander", "cli-table3", "string-width"];
// Into dist/mcp.cjs only (see mcpApart): the SDK and the packages its server loads.
const MCP_BUNDLED = [/^@modelcontextprotocol\/sdk\//, /^ajv/, "zod-to-json-schema", /^zod\//];

// The CLI is one CommonJS bundle, started by bin/coverage.js with Node's compile cache on:
// compiling and linking ~30 ES module chunks of our own was a third of a local search's start,
// and Node 20 caches no compiled code at all. Internal dynamic imports become lazy initialisers
// inside the one file, so a module still runs only when a command needs it. `cli` is the small
// entry that answers `--version` (and a prerendered `--help`) and requires the bundle.
export default defineConfig({
  entry: {
    cli: "src/cli/main.ts",
    bundle: "src/cli/start.ts",
    search: "src/cli/start-search.ts",
    undici: "src/backend/undici.ts",
    zod: "src/contract/zod-entry.ts",
    mcp: "src/mcp/stdio.ts",
  },
  format: ["cjs"],
  target: "node20",
  platform: "node",
  outDir: "dist",
  clean: true,
  splitting: false,
  sourcemap: false,
  // import.meta.url (the entry's folder, the bundled dataset's path) as a proper file URL:
  // tsup's own shim does not escape the path, so an install under a folder with `#` or `%` in
  // its name looked for its files elsewhere.
  define: { "import.meta.url": "__importMetaUrl" },
  // The directive first: esbuild's own "use strict" would no longer be the first statement.
  banner: {
    js: '"use strict";var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  // Whitespace and syntax only: less source for V8 to scan when there is no code cache,
  // while names stay readable in --verbose traces.
  minifyWhitespace: true,
  minifySyntax: true,
  // Dependencies are installed beside us; bundling them would only duplicate them. The
  // ES-module-only ones are loaded with import() when first needed. Bundled all the same, so
  // a start reads a few files rather than hundreds: those on every command's path, zod (its
  // ESM build is ~100 files), commander, cli-table3 with string-width; the part of undici we
  // use goes to its own file (see undiciApart).
  external: [
    ...Object.keys(dependencies).filter((name) => !BUNDLED.includes(name)),
    // cli-table3's colours, which we never ask it for.
    "@colors/colors",
  ],
  noExternal: [...BUNDLED, /^undici\/lib\//, ...MCP_BUNDLED],
  esbuildPlugins: [
    withoutZodLocales,
    lazyZod,
    lazyChildProcess,
    lazyDefaults,
    undiciApart,
    mcpApart,
    distApart,
  ],
  // Keep `node:` in built-in names (tsup would strip them ahead of every plugin, this one too).
  removeNodeProtocol: false,

  // The sample's index first (the main job that eager-functions runs reads it); dist/help.json
  // is the last file a build writes (test/global-setup.ts).
  onSuccess:
    "node build/index-sample.mjs && node build/eager-functions.mjs && node build/render-help.mjs",
});
