#!/usr/bin/env node
// Thin shim: the CLI itself is bundled into dist/ by `npm run build` (run by `npm install`).
import module from "node:module";

module.enableCompileCache?.();
module.createRequire(import.meta.url)("../dist/cli.cjs");
