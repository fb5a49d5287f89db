import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/cli.js";

const eslint = new ESLint({ cwd: ROOT });

/** The import-rule messages ESLint gives a file of that path holding `code`. */
async function restrictions(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports")
    .map((m) => m.message);
}

describe("the rules between folders (eslint.config.js)", () => {
  it.each([
    ["src/engine/x.ts", 'import { createProgram } from "../cli/program.js";', "Rule 1"],
    ["src/output/x.ts", 'import { runCli } from "../cli/run.js";', "Rule 1"],
    ["src/contract/x.ts", 'import { UsageError } from "../errors.js";', "Rule 2"],
    ["src/domain/x.ts", 'import { filterPolicies } from "../engine/filter.js";', "Rule 2"],
    ["src/engine/x.ts", 'import { readFileSync } from "node:fs";', "Rule 3"],
    ["src/views/x.ts", 'import { request } from "undici";', "Rule 3"],
    ["src/output/x.ts", 'import { filterPolicies } from "../engine/filter.js";', "Rule 4"],
    ["src/output/x.ts", 'import { buildMatrix } from "../views/matrix.js";', "Rule 4"],
    ["src/engine/x.ts", 'import { ApiClient } from "../backend/client.js";', "Rule 5"],
    ["src/views/x.ts", 'import { renderTable } from "../output/table.js";', "Rule 6"],
    ["src/views/x.ts", 'import { ApiClient } from "../backend/client.js";', "Rule 6"],
    ["src/backend/x.ts", 'import { renderTable } from "../output/table.js";', "Rule 7"],
    ["src/snapshot/x.ts", 'import { renderTable } from "../output/table.js";', "Rule 8"],
    // The four arrows a newcomer found (issue 37 item 9), and their kind.
    ["src/engine/x.ts", 'import type { ApiResponse } from "../api/request.js";', "Rule 5"],
    ["src/dataset/x.ts", 'import { hasBadSegment } from "../api/request.js";', "Rule 8"],
    ["src/output/x.ts", 'import type { SnapshotEntry } from "../pull/list.js";', "Rule 4"],
    ["src/views/x.ts", 'import { compareCodePoints } from "../engine/compare.js";', "Rule 6"],
    ["src/views/x.ts", 'import { makeCodeKey } from "../engine/codes.js";', "Rule 6"],
    ["src/views/x.ts", 'import { listPayers } from "../mcp/tools.js";', "Rule 6"],
    ["src/engine/x.ts", 'import { renderTool } from "../mcp/render.js";', "Rule 5"],
    ["src/backend/x.ts", 'import { pullMedicare } from "../pull/medicare.js";', "Rule 7"],
  ])("%s: `%s` fails with %s named", async (file, code, rule) => {
    const messages = await restrictions(file, code);
    expect(
      messages.some((m) => m.includes(`${rule} (docs/architecture.md)`)),
      messages.join("\n"),
    ).toBe(true);
  });

  it.each([
    ["src/output/x.ts", 'import { versionState } from "../engine/time.js";'],
    ["src/output/x.ts", 'import type { Verdict } from "../views/coverage-summary.js";'],
    ["src/views/x.ts", 'import type { ApiClient } from "../backend/client.js";'],
    ["src/views/x.ts", 'import { isInEffect } from "../engine/time.js";'],
    ["src/views/x.ts", 'import { compareCodePoints } from "../domain/compare.js";'],
    ["src/engine/x.ts", 'import type { ApiResponse } from "../contract/api-request.js";'],
    ["src/output/x.ts", 'import type { SnapshotEntry } from "../snapshot/entry.js";'],
    ["src/domain/x.ts", 'import type { CodeSystem } from "../contract/index.js";'],
    ["src/commands/x.ts", 'import { createContext } from "../cli/context.js";'],
  ])("%s: `%s` is allowed", async (file, code) => {
    expect(await restrictions(file, code)).toEqual([]);
  });
});
