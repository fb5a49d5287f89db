import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { maskSecrets } from "../backend/http-redact.js";
import { stripControls } from "../output/terminal.js";
import { readSearchShape } from "../output/search-view.js";
import { buildSearchRequest } from "../requests/search.js";
import { boundNotes, cutText } from "./bound-text.js";
import { MAX_INPUT_ELEMENTS, TEXT_LIMIT } from "./limits.js";
import { renderAnswer } from "./render.js";
import { inToolTerms } from "./tool-terms.js";
import { defineTools, type ToolInput, type ToolSpec } from "./tools.js";

/** A CLI command run in process: its exit code and what it wrote. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** What the server needs from the CLI around it (given, so that src/mcp imports no CLI). */
export interface McpOptions {
  /** Runs `coverage ARGV` in this process over the shared backend. */
  run: (argv: string[], stdin?: string) => Promise<CommandRun>;
  /**
   * The backend the runs share, once a run has opened it: "today" as the commands see it, and
   * where the answers come from ("local snapshot medicare.db, as of 2026-02-10").
   */
  backend: { open?: Promise<{ today: string; source: string }> };
  /** Values never to show (the API key). */
  secrets: ReadonlyArray<string | undefined>;
  version: string;
}

export { TEXT_LIMIT };
/** Criteria text longer than this is cut, with a note, in the text and the structured answer. */
export const CRITERIA_LIMIT = 32_000;

const MEDICARE_NOTE =
  "Note: Medicare LCDs and articles (cms-lcd/..., cms-article/...) are local coverage: each applies only in its contractors' states, the scopes listed with it.";

/** The MCP server with the coverage tools, each answered by the matching command's `--json`. */
export function createCoverageServer(options: McpOptions): McpServer {
  const server = new McpServer(
    { name: "coverage", version: options.version },
    {
      instructions:
        "Coverage policy lookups (payer and Medicare policies that cover, exclude or mention a code). " +
        "Codes are SYSTEM:CODE (CPT:97110, HCPCS:E0601, ICD10CM:M54.50). Start with lookup_code or " +
        "search_policies; get_policy for criteria; list_payers for payer ids.",
      // Counted before the schemas run: a call of 100,000 states is refused at once.
      maxToolInputElements: MAX_INPUT_ELEMENTS,
    },
  );
  for (const spec of defineTools())
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        // Strict: a field no tool has (`exact_state`, `state` for `states`) is refused, not dropped.
        inputSchema: z.strictObject(spec.input),
        outputSchema: spec.output,
        annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
      },
      (input: ToolInput) => answer(spec, input, options),
    );
  return server;
}

/** One tool call: never throws; a bad input or a failed command is an error result. */
async function answer(spec: ToolSpec, input: ToolInput, o: McpOptions): Promise<CallToolResult> {
  const hide = (text: string) => maskSecrets(stripControls(text), o.secrets);
  try {
    const problem = spec.check?.(input);
    if (problem) return failure(hide(problem));
    const ran = await o.run([...spec.argv(input), "--json"], spec.stdin?.(input));
    // The CLI's words in the tool's terms: its fields and tools, never a flag or a command.
    const said = inToolTerms(ran.stderr.trim(), spec);
    if (ran.code !== 0 || ran.stdout.trim() === "")
      return failure(hide(said || `coverage exited with ${ran.code} and no answer`));
    const data = JSON.parse(ran.stdout) as Record<string, unknown>;
    const shape = spec.name === "search_policies" ? readSearchShape(searchBody(input)) : undefined;
    const opened = await o.backend.open;
    const body = renderAnswer(spec.name, data, { today: opened?.today ?? "", shape });
    // A note the answer's text says already ("No policies match.") is said once.
    const notes = said ? said.split("\n").filter((note) => !body.includes(note)) : [];
    if (spec.name === "get_policy") notes.push(...cutCriteria(data));
    const medicare = /"cms-(lcd|article)\//.test(ran.stdout) ? [MEDICARE_NOTE] : [];
    const head = [`Source: ${opened?.source ?? "unknown"}.`, ...medicare, ...notes];
    return {
      content: [{ type: "text", text: hide(boundText(head, body)) }],
      structuredContent: data,
    };
  } catch (err) {
    return failure(hide(`error: ${err instanceof Error ? err.message : String(err)}`));
  }
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text: cutText(text, TEXT_LIMIT) }], isError: true };
}

/** The filter body the search command builds from the same input (for its verdict column). */
function searchBody(input: ToolInput): Record<string, unknown> {
  return buildSearchRequest({ code: input.codes as string[] | undefined }, undefined);
}

/** Cuts a long criteria text in place; returns the note saying so (or nothing). */
function cutCriteria(detail: Record<string, unknown>): string[] {
  const text = detail.criteria_text;
  if (typeof text !== "string" || text.length <= CRITERIA_LIMIT) return [];
  const note = `The criteria text is cut at ${CRITERIA_LIMIT.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters: a tool's answer holds at most that much of it.`;
  detail.criteria_text = `${text.slice(0, CRITERIA_LIMIT)}\n\n[${note}]`;
  return [note];
}

/** The header, then as many body lines as fit in TEXT_LIMIT, then a note on what was left out. */
export function boundText(head: string[], body: string[]): string {
  // The notes (warnings that echo the input) are bounded too, leaving the body most of the room.
  head = boundNotes(head);
  let used = Buffer.byteLength(head.join("\n")) + 200;
  const kept: string[] = [];
  for (const line of body) {
    const size = Buffer.byteLength(line) + 1;
    if (used + size > TEXT_LIMIT) {
      const cut = body.length - kept.length;
      const room = TEXT_LIMIT - used;
      // One long line (criteria, a diff) is cut inside rather than dropped whole.
      if (room > 1000 && kept.length === body.indexOf(line))
        kept.push(line.slice(0, Math.floor(room / 4)));
      kept.push(`[... text cut at 64 KB: ${cut} more line(s); the structured answer has them all]`);
      break;
    }
    used += size;
    kept.push(line);
  }
  return [...head, "", ...kept].join("\n");
}
