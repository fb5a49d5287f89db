#!/usr/bin/env node
// Thin shim: the CLI itself is bundled into dist/ by `npm run build` (run by `npm install`).
require("node:module").enableCompileCache?.();
require("../dist/cli.cjs");
