// Runs after every build (tsup's onSuccess), before build/render-help.mjs: indexes the bundled
// sample once (checked as --data checks a file) into dist/sample-index.json, which the built CLI
// reads instead of checking and indexing fixtures/dataset.json at every start
// (src/dataset/prebuilt.ts; its gain is in docs/performance.md, "Start-up").
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.join(import.meta.dirname, "..");
const bundle = createRequire(import.meta.url)("../dist/bundle.cjs");
const index = bundle.prebuildIndex(path.join(root, "fixtures", "dataset.json"));
writeFileSync(path.join(root, "dist", "sample-index.json"), JSON.stringify(index));
