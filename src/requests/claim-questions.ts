// The second stage of `coverage check`: parsed lines grouped into claims (the lines checked
// together), and the distinct questions they ask the API: one filter per (procedure, state, LOB,
// payer, date), never one per line.
import type { ApiClient } from "../backend/client.js";
import { buildCheckBody, checkFlagFor, combinationKey, describeProblem } from "./claim-line.js";
import type { ParsedLine, SkippedLine } from "./claim-input.js";

export { buildCheckBody, checkFlagFor, combinationKey } from "./claim-line.js";

/** Lines checked together, in input order (rules that look across lines see them all). */
export interface ClaimLines {
  lines: ParsedLine[];
}

/**
 * The claims of the input, in order, skipped lines passed on where they come. Each line is its
 * own claim today; a `claim` column (lines of one claim, consecutive) would group them here.
 */
export async function* groupClaims(
  lines: AsyncIterable<ParsedLine | SkippedLine>,
): AsyncGenerator<ClaimLines | SkippedLine> {
  for await (const l of lines) yield "problem" in l ? l : { lines: [l] };
}

/** What --dry-run needs of the command's context. */
export interface DryRunContext {
  offlineClient(): Pick<ApiClient, "build">;
  printDryRun(request: ReturnType<ApiClient["build"]["filter"]>): void;
  notice(message: string): void;
  io: { stderr: NodeJS.WritableStream };
}

/**
 * --dry-run: the first page's request of each distinct question, once, in input order; each
 * skipped line named on stderr.
 */
export async function printQuestions(
  lines: AsyncIterable<ParsedLine | SkippedLine>,
  ctx: DryRunContext,
  source: string,
): Promise<void> {
  const { build } = ctx.offlineClient();
  const seen = new Set<string>();
  for await (const l of lines) {
    if ("problem" in l) {
      ctx.io.stderr.write(`${describeProblem(l, source)} (skipped)\n`);
      continue;
    }
    const key = combinationKey(l.parsed);
    if (seen.has(key)) continue;
    seen.add(key);
    ctx.printDryRun(build.filter(buildCheckBody(l.parsed), checkFlagFor));
  }
  ctx.notice(
    `${seen.size} request${seen.size === 1 ? "" : "s"}; further pages are asked for while an answer says has_more.`,
  );
}
