// Runs after every build (tsup's onSuccess), after build/index-sample.mjs: makes the top-level
// functions that the main job runs compile with dist/bundle.cjs's top level, so that Node's
// compile cache holds them. Node's cache stores V8's code as compiled before a file runs, and
// V8 compiles a function when it is first called, so each start compiled the ~470 functions a
// search calls again (~45 M instructions of ~200 M). V8 compiles a parenthesised function
// expression with the top level (its "PIFE" heuristic): each function declaration that the
// main job runs (V8's --log-function-events, on a search --json and a table) becomes
// `var name = (function name(...) {...});`, moved to the start of the bundle's scope, where a
// declaration's hoisting would have defined it. Nothing else changes; the gain and how to
// check it are in docs/performance.md ("Start-up").
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";

const root = path.join(import.meta.dirname, "..");
const MAIN_JOB = ["--local", "search", "--code", "CPT:97110", "--state", "CA", "-q"];

/**
 * The end offsets of the functions of `bundle` that a run of `args` called: the main job runs
 * dist/search.cjs (dist/cli.cjs starts it for a search); dist/bundle.cjs, which every other
 * command runs, is started directly with the same job, for the functions the two share.
 */
function calledFunctions(bundle, args, dir, node = process.execPath) {
  const log = path.join(dir, "v8.log");
  execFileSync(
    node,
    [
      "--log-function-events",
      `--logfile=${log}`,
      "--no-logfile-per-isolate",
      ...(bundle.endsWith("search.cjs")
        ? [path.join(root, "bin", "coverage.js")]
        : ["-e", `require(${JSON.stringify(bundle)}).main(process.argv.slice(1))`, "--"]),
      ...args,
    ],
    {
      // None of the user's settings (COVERAGE_DATA would profile another dataset's search).
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(([name]) => !name.startsWith("COVERAGE_")),
        ),
        NODE_DISABLE_COMPILE_CACHE: "1",
        COVERAGE_CONFIG_DIR: dir,
      },
      stdio: "ignore",
    },
  );
  const ends = new Set();
  let script;
  for (const line of readFileSync(log, "utf8").split("\n")) {
    const fields = line.split(",");
    const [kind, event, id, , end] = fields;
    // script-details,ID,URL,LINE,COLUMN,SOURCE_MAP_URL: the URL may hold commas.
    if (kind === "script-details" && path.resolve(fields.slice(2, -3).join(",")) === bundle)
      script = event;
    // Compiled to bytecode: V8 compiles a function when it is first called (first-execution
    // events alone miss functions called once on Node 20, whose feedback is allocated lazily).
    else if (
      kind === "function" &&
      (event === "interpreter" || event === "first-execution") &&
      id === script
    )
      ends.add(Number(end));
  }
  return ends;
}

/**
 * A Node with node:sqlite (22.13+) to run a snapshot search with: this one, else the Node 22 or
 * 24 that .ci/run keeps (CI_NODE_CACHE, ~/.cache/coverage-ci), so a build by Node 20 still
 * finds the functions a snapshot search runs on Node 22 and 24; null when there is none.
 */
function sqliteNode() {
  const cache =
    process.env.CI_NODE_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "coverage-ci");
  for (const node of [
    process.execPath,
    ...[22, 24].map((m) => path.join(cache, `node-${m}`, "node_modules", ".bin", "node")),
  ]) {
    if (node !== process.execPath && !existsSync(node)) continue;
    try {
      const version = execFileSync(node, ["-p", "process.versions.node"], { encoding: "utf8" });
      const [major, minor] = version.trim().split(".").map(Number);
      if (major > 22 || (major === 22 && minor >= 13)) return node;
    } catch {
      // Not a Node that runs here: the next one.
    }
  }
  return null;
}

/** The bundled sample as a snapshot, DIR/sample.db, made by `node` (which has node:sqlite). */
function sampleSnapshot(dir, node) {
  const db = path.join(dir, "sample.db");
  if (existsSync(db)) return;
  execFileSync(
    node,
    [
      path.join(root, "bin", "coverage.js"),
      "-q",
      "data",
      "build",
      path.join(root, "fixtures", "dataset.json"),
      "-o",
      db,
    ],
    { env: { ...process.env, COVERAGE_CONFIG_DIR: dir }, stdio: "ignore" },
  );
}

/** Makes the top-level functions of `bundle` that the main job calls eager. */
function makeEager(file, dir) {
  const bundle = path.join(root, "dist", file);
  const called = new Set([
    ...calledFunctions(bundle, [...MAIN_JOB, "--json"], dir),
    ...calledFunctions(bundle, MAIN_JOB, dir),
    // The one-shot search of a snapshot (the store's code), on the sample made one, where a
    // Node with node:sqlite is at hand (elsewhere its functions compile when called).
    ...(snapshotNode
      ? (sampleSnapshot(dir, snapshotNode),
        calledFunctions(
          bundle,
          ["--data", path.join(dir, "sample.db"), ...MAIN_JOB.slice(1), "--json"],
          dir,
          snapshotNode,
        ))
      : []),
  ]);
  const text = readFileSync(bundle, "utf8");
  const source = ts.createSourceFile(bundle, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const moved = [];
  const edits = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !statement.body) continue;
    if (!called.has(statement.end)) continue;
    const start = statement.getStart(source);
    moved.push(`var ${statement.name.text}=(${text.slice(start, statement.end)});`);
    edits.push([start, statement.end, ""]);
  }
  // esbuild's module wrappers that ran (`__esm({"src/x.ts"() {...}})`, `__commonJS(...)`): a
  // method of an object literal, which V8 compiles when called; as a parenthesised function
  // it is compiled with the top level. The helpers call it as `(0, fn[name])(...)` either way.
  let wrappers = 0;
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      (node.expression.text === "__esm" || node.expression.text === "__commonJS") &&
      node.arguments.length === 1 &&
      ts.isObjectLiteralExpression(node.arguments[0]) &&
      node.arguments[0].properties.length === 1
    ) {
      const method = node.arguments[0].properties[0];
      if (ts.isMethodDeclaration(method) && method.body && called.has(method.end)) {
        const start = method.getStart(source);
        const params = text.slice(method.parameters.pos - 1, method.parameters.end + 1);
        const body = text.slice(method.body.getStart(source), method.end);
        edits.push([
          start,
          method.end,
          `${method.name.getText(source)}:(function${params}${body})`,
        ]);
        wrappers++;
      }
      return;
    }
    if (ts.isFunctionLike(node)) return;
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (moved.length === 0) {
    // A start that compiles them lazily, as before: slower, never wrong.
    console.warn(`eager-functions: no function of the main job found; dist/${file} left as built`);
    return;
  }
  console.log(
    `eager-functions: ${moved.length} functions and ${wrappers} module wrappers of ${called.size} the main job compiled (dist/${file})`,
  );
  let out = text;
  for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + replacement + out.slice(end);
  // After the first line (the banner: the "use strict" directive and __importMetaUrl).
  const firstLine = out.indexOf("\n") + 1;
  out = out.slice(0, firstLine) + moved.join("") + "\n" + out.slice(firstLine);
  writeFileSync(bundle, out);
}

const snapshotNode = sqliteNode();
const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-eager-"));
try {
  makeEager("search.cjs", dir);
  makeEager("bundle.cjs", dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
