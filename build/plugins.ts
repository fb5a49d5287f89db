// The esbuild plugins of the build (tsup.config.ts): start-up pieces, each with its measured
// gain in docs/performance.md ("Start-up"). Each rewrites where an import of the bundle goes.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Options } from "tsup";
import ts from "typescript";

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

// zod's namespace re-exports its ~40 translations (`z.locales`, half of its code), which the
// bundle then parses on every start. We never use them (English messages come from zod's own
// import of its `en` locale), so the namespace is bundled empty: ~9 ms less per start.
export const withoutZodLocales: Plugin = {
  name: "without-zod-locales",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: "zod-locales", namespace: "empty" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "export {};" }));
  },
};

// commander requires node:child_process when it loads, for executable subcommands (we have
// none); compiling that built-in was ~11 ms of every start. commander gets a stand-in that
// loads the real module on first use.
export const lazyChildProcess: Plugin = {
  name: "lazy-child-process",
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer)
        ? { path: "child-process", namespace: "lazy" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy" }, () => ({
      contents:
        "let real;\n" +
        "module.exports = new Proxy({}, {\n" +
        '  get: (_, key) => (real ??= require("node:child_process"))[key],\n' +
        "});\n",
      loader: "js",
    }));
  },
};

// Packages whose default export is a function or class called on a rare path: cli-table3 draws
// a table only when a cell must be cut (src/output/table.ts draws the others), string-width
// measures only text that is not one column per character (src/output/text-width.ts). Bundled
// as usual, but their module code (and string-width's 10 KB emoji pattern) runs on first call,
// not when src/output/ loads: a table into a pipe compiled ~25 KB of them without calling one.
const LAZY_DEFAULTS = ["cli-table3", "string-width"];

export const lazyDefaults: Plugin = {
  name: "lazy-defaults",
  setup(build) {
    const names = new RegExp(`^(${LAZY_DEFAULTS.join("|")})$`);
    build.onResolve({ filter: names }, (args) =>
      /[\\/]src[\\/]/.test(args.importer)
        ? { path: args.path, namespace: "lazy-default" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-default" }, (args) => ({
      // Callable with and without `new` (a class gives an instance of itself either way).
      contents:
        "let real;\n" +
        "module.exports = function (...args) {\n" +
        `  real ??= require(${JSON.stringify(args.path)});\n` +
        "  return new.target ? new real(...args) : real(...args);\n" +
        "};\n",
      loader: "js",
      resolveDir: process.cwd(),
    }));
  },
};

// Files of dist/ that others require at run time (dist/cli.cjs the bundle or the search's; they undici,
// zod and mcp): left as written, resolved beside the file that requires them.
export const distApart: Plugin = {
  name: "dist-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/(bundle|search|undici|zod|mcp)\.cjs$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
  },
};

/** An expression that requires `file` of dist/ (left as written by distApart). */
function requireFromDist(file: string): string {
  return `require("./${file}")`;
}

// undici is ~40% of the CLI's code and only HTTP commands run it: it is its own file
// (dist/undici.cjs, built from src/backend/undici.ts), required when an HTTP command first needs
// it, so a local command reads, decodes and caches ~400 KB less (~2 ms of its start). It shares
// no state with the rest of the CLI, so two files change nothing else.
// `coverage mcp` is its own file too (dist/mcp.cjs, built from src/mcp/stdio.ts with the MCP SDK
// and what the SDK needs, ajv and its own zod, bundled in): required by `coverage mcp` alone,
// so no other command reads or compiles any of it, and the server reads one file where the
// SDK from node_modules was ~240 files (ready ~2x sooner).
export const mcpApart: Plugin = {
  name: "mcp-apart",
  setup(build) {
    build.onResolve({ filter: /[\\/]mcp[\\/]stdio\.js$/ }, (args) =>
      args.path.startsWith(".") && /[\\/]src[\\/]commands[\\/]/.test(args.importer)
        ? { path: "mcp", namespace: "mcp-apart" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "mcp-apart" }, () => ({
      contents: `module.exports = ${requireFromDist("mcp.cjs")};`,
      loader: "js",
      resolveDir: process.cwd(),
    }));
  },
};

export const undiciApart: Plugin = {
  name: "undici-apart",
  setup(build) {
    // Through a stand-in that requires the file, which esbuild leaves out of the bundle.
    build.onResolve({ filter: /[\\/]undici\.js$/ }, (args) =>
      args.path.startsWith(".") && /[\\/]src[\\/](backend|download)[\\/]/.test(args.importer)
        ? { path: "undici", namespace: "undici-apart" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "undici-apart" }, () => ({
      contents: `module.exports = ${requireFromDist("undici.cjs")};`,
      loader: "js",
      resolveDir: process.cwd(),
    }));
  },
};

// zod is its own file too (dist/zod.cjs), loaded on first use. A search builds no schema (the
// build-time parsers of src/contract/fast-parse.ts answer), yet zod's module code (its classes,
// ~1 ms) ran at every start, and its ~140 KB of functions were more code to read and
// compile: esbuild hoists a module's functions to the top of the bundle, where V8 keeps a stub
// of each even when the module never runs. Our modules get a stand-in for
// `import * as z from "zod"`: a getter for each name of zod that src/ reads as a value, which
// requires dist/zod.cjs on first read. That file is built from a module re-exporting just
// those names, so esbuild still drops the rest of zod. Every use of zod goes through the
// stand-in: one copy of zod, one `config`, one `ZodError` class.
function zodNamesUsed(): string[] {
  const exported = new Set(Object.keys(createRequire(path.resolve("package.json"))("zod")));
  const used = new Set<string>();
  for (const file of readdirSync("src", { recursive: true, encoding: "utf8" })) {
    const name = path.join("src", file);
    if (!file.endsWith(".ts") || ZOD_ENTRY.test(path.resolve(name))) continue;
    const text = readFileSync(name, "utf8");
    if (!/["']zod(\/[^"']*)?["']/.test(text)) continue;
    for (const read of zodReads(name, text)) {
      if (!exported.has(read)) throw new Error(`${name}: z.${read} is not a name of zod`);
      used.add(read);
    }
  }
  return [...used].sort();
}

/**
 * The names a file reads from zod as values (`z.NAME`), from its syntax tree: a name read only
 * in a type (`z.core.$ZodIssue`) must not pull in code. Any other use of zod fails the build:
 * an import of another form or path, a re-export, `import()`, or `z` passed on or indexed
 * would read names the stand-in does not have, undefined at run time.
 */
function zodReads(file: string, text: string): string[] {
  const refuse = (node: ts.Node, what: string): never => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    throw new Error(
      `${file}:${line + 1}: ${what}; the built CLI reads zod only through \`import * as z from "zod"\` and \`z.NAME\` (build/plugins.ts, lazyZod)`,
    );
  };
  const isZod = (node: ts.Node | undefined) =>
    node !== undefined && ts.isStringLiteral(node) && /^zod(\/|$)/.test(node.text);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const reads: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && isZod(node.moduleSpecifier)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) return;
      const namespace = clause?.namedBindings;
      if (
        (node.moduleSpecifier as ts.StringLiteral).text !== "zod" ||
        clause?.name ||
        !namespace ||
        !ts.isNamespaceImport(namespace) ||
        namespace.name.text !== "z"
      )
        refuse(node, "another form of import of zod");
      return;
    }
    if (ts.isExportDeclaration(node) && isZod(node.moduleSpecifier))
      refuse(node, "a re-export of zod");
    if (ts.isCallExpression(node) && node.arguments.some(isZod))
      refuse(node, "zod loaded by a call");
    if (ts.isIdentifier(node) && node.text === "z") {
      const parent = node.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node)
        reads.push(parent.name.text);
      else if (!ts.isQualifiedName(parent)) refuse(node, "`z` used otherwise than as `z.NAME`");
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return reads;
}

const ZOD_ENTRY = /[\\/]src[\\/]contract[\\/]zod-entry\.ts$/;

export const lazyZod: Plugin = {
  name: "lazy-zod",
  setup(build) {
    const names = zodNamesUsed();
    build.onResolve({ filter: /^zod$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) && !ZOD_ENTRY.test(args.importer)
        ? { path: "stand-in", namespace: "lazy-zod" }
        : undefined,
    );
    build.onLoad({ filter: /^stand-in$/, namespace: "lazy-zod" }, () => ({
      contents:
        "let real;\n" +
        `for (const name of ${JSON.stringify(names)})\n` +
        "  Object.defineProperty(exports, name, {\n" +
        "    enumerable: true,\n" +
        `    get: () => (real ??= ${requireFromDist("zod.cjs")})[name],\n` +
        "  });\n",
      loader: "js",
      resolveDir: process.cwd(),
    }));
    // The entry of dist/zod.cjs.
    build.onLoad({ filter: ZOD_ENTRY }, () => ({
      contents: `export { ${names.join(", ")} } from "zod";`,
      loader: "js",
      resolveDir: process.cwd(),
    }));
  },
};
