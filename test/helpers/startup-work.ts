import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** What one start of a process did, counted by V8 and Node rather than timed. */
export interface StartupWork {
  exitCode: number;
  /** Functions of `scripts` that V8 compiled to bytecode (top levels apart), and their source bytes. */
  functions: number;
  functionBytes: number;
  /** JavaScript files loaded from disk (not Node's own), with the bytes read for them. */
  scripts: string[];
  scriptBytes: number;
  /** Node's built-in modules loaded (process.moduleLoadList, `NativeModule` entries). */
  builtins: string[];
  /** Files read whole with fs.readFileSync (the scripts, when this Node's loader reads them so). */
  filesRead: string[];
}

/**
 * Runs `node args` once with V8's function events logged and counts its start's work: the same
 * numbers on an idle or a loaded machine. Node's compile cache is off, so that every start
 * compiles what it runs and the count does not depend on an earlier run.
 */
export async function countStartupWork(
  node: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<StartupWork> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-startup-work-"));
  try {
    const log = path.join(dir, "v8.log");
    const preload = path.join(dir, "report-work.cjs");
    const report = path.join(dir, "work.json");
    writeFileSync(
      preload,
      [
        'const fs = require("node:fs");',
        "const read = fs.readFileSync;",
        "const files = [];",
        "fs.readFileSync = function (file, ...rest) {",
        '  if (typeof file === "string") files.push(file);',
        "  return read.call(this, file, ...rest);",
        "};",
        `process.on("exit", () => fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify({ modules: process.moduleLoadList, files })));`,
      ].join("\n"),
    );
    // Output to /dev/null, as the bench's runs: to a pipe, Node's streams would write past 4 KB.
    const exitCode = await new Promise<number>((resolve, reject) => {
      const child = spawn(
        node,
        [
          "--log-function-events",
          `--logfile=${log}`,
          "--no-logfile-per-isolate",
          "--require",
          preload,
          ...args,
        ],
        { env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" }, stdio: "ignore" },
      );
      child.on("error", reject);
      child.on("close", (code) => resolve(code ?? -1));
    });
    const urls = new Map<string, string>();
    let functions = 0;
    let functionBytes = 0;
    const counted = (url: string | undefined) =>
      url !== undefined && path.isAbsolute(url) && url !== preload;
    for (const line of readFileSync(log, "utf8").split("\n")) {
      const [kind, event, id, start, end] = line.split(",", 5);
      if (kind === "script-details") urls.set(event!, id!);
      else if (kind === "function" && event === "interpreter" && Number(start) > 0) {
        if (!counted(urls.get(id!))) continue;
        functions++;
        functionBytes += Number(end) - Number(start);
      }
    }
    const scripts = [...new Set([...urls.values()].filter(counted))].sort();
    const { modules, files } = JSON.parse(readFileSync(report, "utf8")) as {
      modules: string[];
      files: string[];
    };
    const builtins = modules
      .filter((m) => m.startsWith("NativeModule "))
      .map((m) => m.slice("NativeModule ".length));
    return {
      exitCode,
      functions,
      functionBytes,
      scripts,
      scriptBytes: scripts.reduce((sum, file) => sum + statSync(file).size, 0),
      builtins,
      filesRead: [...new Set(files.map((file) => path.resolve(file)))],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
