import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  betweenMarkers,
  COMPLETION_END,
  COMPLETION_START,
  OPTIONS_END,
  OPTIONS_START,
  replaceBetweenMarkers,
} from "../../../src/completion/markdown.js";
import { createProgram } from "../../../src/cli/program.js";
import { allCommands, describeProgram } from "../../../src/completion/index.js";
import {
  COMMANDS_DOC,
  renderCommandsDoc,
  renderReadmeCompletion,
  renderReadmeOptions,
} from "../../../scripts/generate-docs.js";
import { renderCompletionFiles } from "../../../scripts/generate-completions.js";

const REGENERATE = "stale: run `npm run completions && npm run docs` and commit the result";

describe("checked-in completion scripts", () => {
  it.each(renderCompletionFiles().map((f) => [f.file, f.text] as const))(
    "%s is what the generator makes from the current tree",
    (file, text) => {
      expect(existsSync(file), `${file} is missing: ${REGENERATE}`).toBe(true);
      expect(readFileSync(file, "utf8"), REGENERATE).toBe(text);
    },
  );
});

describe("docs/commands.md", () => {
  it("is exactly what the generator makes from the current tree", async () => {
    expect(readFileSync(COMMANDS_DOC, "utf8"), REGENERATE).toBe(await renderCommandsDoc());
  });
});

describe("docs/commands.md options reference", () => {
  it("is what the generator makes from the current tree", async () => {
    const block = betweenMarkers(readFileSync(COMMANDS_DOC, "utf8"), OPTIONS_START, OPTIONS_END);
    expect(block, `docs/commands.md has no ${OPTIONS_START} block: ${REGENERATE}`).toBeDefined();
    expect(block?.trim(), REGENERATE).toBe((await renderReadmeOptions()).trim());
  });

  it("documents every subcommand", async () => {
    const text = await renderReadmeOptions();
    const root = describeProgram(createProgram({ env: {}, signal: new AbortController().signal }));
    const names = allCommands(root)
      .filter((c) => c.path.length > 0 && c.name !== "help")
      .map((c) => c.path.join(" "));
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(text).toContain(`### \`coverage ${name}`);
  });
});

describe("docs/commands.md shell completion section", () => {
  it("is what the generator makes from the current tree", async () => {
    const block = betweenMarkers(
      readFileSync(COMMANDS_DOC, "utf8"),
      COMPLETION_START,
      COMPLETION_END,
    );
    expect(block, `docs/commands.md has no ${COMPLETION_START} block: ${REGENERATE}`).toBeDefined();
    expect(block?.trim(), REGENERATE).toBe((await renderReadmeCompletion()).trim());
  });

  it("names the options whose values complete", async () => {
    const text = await renderReadmeCompletion();
    for (const flag of ["--lob", "--state", "--relationship", "--sort", "--match", "--format"])
      expect(text).toContain(`\`${flag}\``);
  });
});

describe("replaceBetweenMarkers", () => {
  const S = "<!-- x:start -->";
  const E = "<!-- x:end -->";

  it.each([
    ["appends the block when absent", "# Title\n", `# Title\n\n${S}\n\nnew\n\n${E}\n`],
    ["replaces only between the markers", `a\n${S}\nold\n${E}\nb\n`, `a\n${S}\n\nnew\n\n${E}\nb\n`],
    ["appends when only the start marker is there", `a ${S}\n`, `a ${S}\n\n${S}\n\nnew\n\n${E}\n`],
  ])("%s", (_name, before, after) => {
    expect(replaceBetweenMarkers(before, S, E, "new\n")).toBe(after);
  });

  it("is idempotent", () => {
    const once = replaceBetweenMarkers("text\n", S, E, "body");
    expect(replaceBetweenMarkers(once, S, E, "body")).toBe(once);
    expect(betweenMarkers(once, S, E)?.trim()).toBe("body");
  });
});
