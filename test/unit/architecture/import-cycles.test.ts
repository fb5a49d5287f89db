import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/cli.js";

const SRC = path.join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/** Every file of src/ a file imports, type-only and dynamic imports included. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => path.resolve(path.dirname(file), name.replace(/\.js$/, ".ts")))
    .filter((target) => existsSync(target));
}

/** The cycles of a graph, each as the files around it (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(ROOT, member));
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("src/ imports", () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));

  it("are read from every file (the check sees the tree)", () => {
    expect(graph.size).toBeGreaterThan(150);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
  });

  it("have no cycle, type-only and dynamic imports included (docs/architecture.md)", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("the check finds a cycle when there is one", () => {
    const a = path.join(SRC, "a.ts");
    const b = path.join(SRC, "b.ts");
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([["src/a.ts", "src/b.ts"]]);
  });
});
