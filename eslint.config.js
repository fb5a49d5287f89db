import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

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
          message: "Exit codes are mapped in src/cli/start.ts only.",
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
    files: ["src/cli/start.ts", "bin/**", "bench/**", "scripts/**", "test/**"],
    rules: { "no-restricted-syntax": "off" },
  },
);
