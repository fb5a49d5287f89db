// `coverage check --json`'s lines, as the tests of the claim edits read them.

/** A line of `check --json` with the rows the tests look at. */
export interface CheckedLineJson {
  line: number;
  results: Array<{ verdict: string; rule?: string }>;
}

/** The lines of `check --json` output. */
export function checkedLines(stdout: string): CheckedLineJson[] {
  return (JSON.parse(stdout) as { lines: CheckedLineJson[] }).lines;
}

/** The verdicts of one input line (by its line number), in their order. */
export function verdictsOf(lines: CheckedLineJson[], line: number): string[] {
  return lines.find((l) => l.line === line)?.results.map((x) => x.verdict) ?? [];
}
