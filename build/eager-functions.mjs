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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
function calledFunctions(bundle, args, dir) {
  const log = path.join(dir, "v8.log");
  execFileSync(
    process.execPath,
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

/** Makes the top-level functions of `bundle` that the main job calls eager. */
function makeEager(file) {
  const bundle = path.join(root, "dist", file);
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-eager-"));
  let called;
  try {
    called = new Set([
      ...calledFunctions(bundle, [...MAIN_JOB, "--json"], dir),
      ...calledFunctions(bundle, MAIN_JOB, dir),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const text = readFileSync(bundle, "utf8");
  const source = ts.createSourceFile(bundle, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const moved = [];
  const cut = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !statement.body) continue;
    if (!called.has(statement.end)) continue;
    const start = statement.getStart(source);
    moved.push(`var ${statement.name.text}=(${text.slice(start, statement.end)});`);
    cut.push([start, statement.end]);
  }
  if (moved.length === 0) {
    // A start that compiles them lazily, as before: slower, never wrong.
    console.warn(`eager-functions: no function of the main job found; dist/${file} left as built`);
    return;
  }
  console.log(
    `eager-functions: ${moved.length} of ${called.size} functions the main job compiled (dist/${file})`,
  );
  let out = text;
  for (const [start, end] of cut.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + out.slice(end);
  // After the first line (the banner: the "use strict" directive and __importMetaUrl).
  const firstLine = out.indexOf("\n") + 1;
  out = out.slice(0, firstLine) + moved.join("") + "\n" + out.slice(firstLine);
  writeFileSync(bundle, out);
}

makeEager("search.cjs");
makeEager("bundle.cjs");
