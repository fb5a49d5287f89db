import { prebuildIndex } from "../dataset/load.js";
import { createProgram } from "./program.js";
import { runProcess } from "./process-main.js";
import { runCli } from "./run.js";

// createProgram: the build renders every command's help with it (build/render-help.mjs);
// prebuildIndex: the build indexes the bundled sample with it (build/index-sample.mjs).
export { createProgram, prebuildIndex, runCli };

/** Runs the CLI, every command of it, as this process (dist/bundle.cjs). */
export async function main(argv: string[]): Promise<void> {
  return runProcess(argv, runCli);
}
