import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ once when it is missing or stale, before any test file runs.
    globalSetup: ["test/global-setup.ts"],
    // Several CLI runs in one test take seconds each on a loaded machine: a timeout is for a
    // hang, not a measure of speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // A fresh process per test file was two thirds of the unit tests' CPU time, and no test
    // changes process-wide state (no module mocks, no env or cwd changes): files share workers.
    isolate: false,
    // The end-to-end tests mostly wait for the CLI processes they start. Vitest's default, one
    // worker less than the cores, is one worker on two cores: every file in turn, one core idle.
    maxWorkers: Math.max(3, os.availableParallelism() + 1),
  },
});
