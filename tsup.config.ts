import { defineConfig } from "tsup";

// One bundled ESM file for fast cold start; heavy modules stay behind dynamic import().
export default defineConfig({
  entry: { cli: "src/cli/main.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  outDir: "dist",
  // Not cleaned: parallel test runs keep using the chunks of the previous build.
  clean: false,
  splitting: true,
  sourcemap: false,
  minify: false,
  // Dependencies are installed beside us; bundling them would only duplicate them.
  skipNodeModulesBundle: true,
});
