// The second stage of `coverage check`: parsed lines grouped into claims (the lines checked
// together), and the distinct questions they ask the API: one filter per (procedure, state, LOB,
// payer, date), never one per line.
import type { ApiClient } from "../backend/client.js";
import { buildCheckBody, checkFlagFor, combinationKey, describeProblem } from "./claim-line.js";
import { sourceName, type CheckFlags, type ParsedLine, type SkippedLine } from "./claim-input.js";

export { buildCheckBody, checkFlagFor, combinationKey } from "./claim-line.js";

/** Lines checked together, in input order (rules that look across lines see them all). */
export interface ClaimLines {
  lines: ParsedLine[];
}

/**
 * The claims of the input, in order, skipped lines passed on where they come: consecutive lines
 * with the same `claim` are one claim; a line without one is a claim of its own.
 */
export async function* groupClaims(
  lines: AsyncIterable<ParsedLine | SkippedLine>,
): AsyncGenerator<ClaimLines | SkippedLine> {
  let open: ClaimLines | undefined;
  for await (const l of lines) {
    if ("problem" in l) {
      yield l;
      continue;
    }
    const id = l.parsed.claim;
    if (open && id !== undefined && open.lines[0]?.parsed.claim === id) {
      open.lines.push(l);
      continue;
    }
    if (open) yield open;
    open = { lines: [l] };
  }
  if (open) yield open;
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
  flags: CheckFlags,
): Promise<void> {
  const source = sourceName(flags);
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
