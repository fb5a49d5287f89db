import { readdirSync } from "node:fs";
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

// The rules between folders (docs/architecture.md, "Rules between folders"): a wrong arrow
// fails `npm test` with a message naming the rule. One override per folder; type-only imports
// are allowed only where marked (they vanish from the build; a value import is an arrow).
const RULE = {
  1: "Rule 1 (docs/architecture.md): arrows point down; nothing below the command layer imports cli/, commands/, config/ or completion/.",
  2: "Rule 2 (docs/architecture.md): contract/ and domain/ are leaves: they import nothing of ours but contract/.",
  3: "Rule 3 (docs/architecture.md): no I/O in contract/, domain/, engine/ or views/: the stores, dataset/ and backend/ do the reading.",
  4: "Rule 4 (docs/architecture.md): output/ renders what it is given: contract/, domain/ and engine/time; types only from views/, import/, snapshot/ and engine/; no other folder (never the client, pull/, download or the command layer).",
  5: "Rule 5 (docs/architecture.md): the engine answers from a store: contract/, domain/, dataset/ and its own rules; no other folder (never the client's api/ or backend/, views, output, server or the command layer).",
  6: "Rule 6 (docs/architecture.md): views compute over API answers through an ApiClient (types only from backend/): contract/, domain/, requests/ and engine/time; no other folder (no output, server, data layer, the rest of engine/ or the command layer).",
  7: "Rule 7 (docs/architecture.md): the client (api/, backend/) imports contract/, domain/, requests/ and the local engine; neither output, views, server, download, pull/ nor the command layer.",
  8: "Rule 8 (docs/architecture.md): the data layers (dataset/, snapshot/, import/) import neither the client (api/, backend/), views, output, server, download, pull/ nor the command layer.",
};
const COMMAND_LAYER = ["cli", "commands", "config", "completion"];
const SRC_FOLDERS = readdirSync("src", { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// Every folder of src/ a layer may not import but those it names (the command layer has rule 1's
// message of its own), so a folder added later is refused until a rule lets it in.
const allBut = (allowed) =>
  SRC_FOLDERS.filter((f) => !allowed.includes(f) && !COMMAND_LAYER.includes(f));
const IO_MODULES = [
  "node:fs",
  "node:fs/promises",
  "node:net",
  "node:http",
  "node:https",
  "node:child_process",
  "undici",
];
const noIo = IO_MODULES.map((name) => ({ name, message: RULE[3] }));
const above = (folders, rule, allowTypeImports = false) => ({
  group: folders.map((f) => `**/${f}/**`),
  message: RULE[rule],
  allowTypeImports,
});
const restrict = (files, patterns, paths = [], ignores = []) => ({
  files,
  ignores,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns, paths }] },
});
const OUTPUT = (views) => [
  above(COMMAND_LAYER, 1),
  above(
    allBut(["output", "contract", "domain", "types", "engine", "import", "snapshot", "views"]),
    4,
  ),
  above(["import", "snapshot"], 4, true),
  ...(views ? [above(["views"], 4, true)] : []),
  { group: ["**/engine/**", "!**/engine/time.js"], message: RULE[4], allowTypeImports: true },
];
const DATA_LAYERS = ["dataset", "snapshot", "import"];
const DATA = (commandLayer, output) => [
  ...(commandLayer ? [above(COMMAND_LAYER, 1)] : []),
  above(
    allBut([...DATA_LAYERS, "engine", "contract", "domain", "files", "types", "output"]).concat(
      output ? ["output"] : [],
    ),
    8,
  ),
];
// Known exceptions, each with the move that ends it (docs/architecture.md, "Known exceptions").
const EXCEPTIONS = {
  // Renderers that call pure helpers of views/: the helpers belong in domain/.
  outputCallsViews: [
    "src/output/diff-view.ts",
    "src/output/matrix-view.ts",
    "src/output/search-columns.ts",
  ],
  // Command glue (a CommandContext, the printed summary): belongs in commands/data-import.ts.
  importGlue: ["src/import/mcd/run.ts"],
  // Records the CLI's version in the snapshot: the version belongs in a leaf (main/).
  snapshotVersion: ["src/snapshot/writer.ts"],
  // The generated parsers include the config file's schema (docs/performance.md).
  generatedParsers: ["src/contract/fast-parse.generated.ts"],
};
const layers = [
  restrict(
    ["src/contract/**", "src/domain/**"],
    [
      {
        group: ["../*.js", ...SRC_FOLDERS.filter((f) => f !== "contract").map((f) => `../${f}/**`)],
        message: RULE[2],
      },
    ],
    noIo,
    EXCEPTIONS.generatedParsers,
  ),
  restrict(
    ["src/engine/**"],
    [
      above(COMMAND_LAYER, 1),
      above(allBut(["engine", "contract", "domain", "dataset", "types"]), 5),
    ],
    noIo,
  ),
  restrict(
    ["src/views/**"],
    [
      above(COMMAND_LAYER, 1),
      above(allBut(["views", "contract", "domain", "requests", "types", "backend", "engine"]), 6),
      above(["backend"], 6, true),
      // The shared rules (code keys, comparisons) live in domain/; of the engine, only its time rule.
      { group: ["**/engine/**", "!**/engine/time.js"], message: RULE[6] },
    ],
    noIo,
  ),
  restrict(["src/output/**"], OUTPUT(true), [], EXCEPTIONS.outputCallsViews),
  restrict(EXCEPTIONS.outputCallsViews, OUTPUT(false)),
  restrict(
    ["src/api/**", "src/backend/**"],
    [
      above(COMMAND_LAYER, 1),
      above(allBut(["api", "backend", "contract", "domain", "dataset", "engine", "requests"]), 7),
    ],
  ),
  restrict(
    ["src/dataset/**", "src/snapshot/**", "src/import/**"],
    DATA(true, true),
    [],
    [...EXCEPTIONS.importGlue, ...EXCEPTIONS.snapshotVersion],
  ),
  restrict(EXCEPTIONS.importGlue, DATA(false, false)),
  restrict(EXCEPTIONS.snapshotVersion, DATA(false, true)),
  restrict(
    ["src/server/**", "src/download/**", "src/requests/**", "src/*.ts"],
    [above(COMMAND_LAYER, 1)],
  ),
];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "completions/**", "bench/out/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
          message: "Exit codes are mapped in src/cli/process-main.ts only.",
        },
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
          message:
            'Write `import * as z from "zod"`: the `z` export is a namespace object that keeps all of zod in the bundle.',
        },
      ],
    },
  },
  {
    // CommonJS (bin/package.json): the shim requires the built CLI; test preloads patch node:fs.
    files: ["bin/**/*.js", "test/**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["src/cli/process-main.ts", "bin/**", "bench/**", "build/**", "scripts/**", "test/**"],
    rules: { "no-restricted-syntax": "off" },
  },
  ...layers,
);
