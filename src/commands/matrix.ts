import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { UsageError } from "../errors.js";
import { MATRIX_CSV_COLUMNS } from "../output/columns.js";
import { parseLobs, parseStatesToSend, splitList } from "../requests/parse-flags.js";
import { parseOneCode, type CodeViewFlags } from "../requests/views.js";
import { collect, examples, withContext } from "./shared.js";
import { addCodeViewOptions, fetchCodeView } from "./view-command.js";

type Opts = CodeViewFlags & { code?: string[]; dryRun?: boolean };

/** The one code of a matrix: positional (`matrix CPT:97110`, as `code` takes it) or `--code`. */
function pickMatrixCode(positional: string | undefined, flags: string[] | undefined): string {
  const given = [...(positional === undefined ? [] : [positional]), ...(flags ?? [])];
  if (given.length !== 1)
    throw new UsageError(
      given.length ? `matrix takes one code, not ${given.length}` : "matrix needs a code",
      "Example: coverage matrix CPT:97110 (or --code CPT:97110; one matrix a code).",
    );
  return given[0]!;
}

/** `coverage matrix --code SYSTEM:CODE`: one code across payers x LOBs (rows) and states. */
export function registerMatrix(program: Command, run: RunEnvironment): void {
  addCodeViewOptions(
    program
      .command("matrix")
      .description("one code across payers and lines of business (rows) and states (columns)")
      .argument("[system:code]", "the code, e.g. CPT:97110 (or --code)")
      .option("--code <system:code>", "the code, e.g. CPT:97110 (or as the argument)", collect),
  )
    .addHelpText(
      "after",
      "\nCells: covers, does not cover, mentions, mixed (policies disagree) or - (none), with the\n" +
        "policy numbers behind them. A nationwide scope applies in every state: it counts in each\n" +
        "state's cell and has its own `nationwide` column; a statewide one (CA) counts in the cells\n" +
        "of the state's parts (NF, SF), and summaries name the parts with their state. Columns\n" +
        "are the --state values sent, else\n" +
        "every state that appears; states alike in every row share a column, and a matrix wider\n" +
        "than the terminal prints in parts. --json has every cell with its policy ids.\n" +
        "How: POST /v1/policies/filter as `coverage code` does (every page, at most 2000 policies).\n" +
        examples([
          "coverage matrix CPT:97110",
          "coverage matrix --code CPT:97110 --state CA,NY,TX",
          "coverage matrix --code HCPCS:E0601 --lob medicare_part_b --json",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [positional]) => {
        const code = pickMatrixCode(positional as string | undefined, opts.code);
        const ref = parseOneCode(code, positional === undefined ? "--code" : undefined);
        const found = await fetchCodeView(ctx, ref, opts);
        if (!found) return;
        const { buildMatrix, flattenMatrix } = await import("../views/matrix.js");
        const asked = {
          states: parseStatesToSend(opts.state, opts.exactState),
          lobs: parseLobs(opts.lob),
          payerIds: splitList(opts.payer),
        };
        const matrix = buildMatrix(found.items, ref, asked, found.day);
        const { writeView } = await import("../output/view-output.js");
        await writeView(matrix, {
          format: ctx.settings.format,
          io: ctx.io,
          command: "matrix",
          rows: flattenMatrix(matrix),
          csvColumns: MATRIX_CSV_COLUMNS,
          emptyMessage: "No policy lists this code.",
          renderTable: async () =>
            (await import("../output/matrix-view.js")).renderMatrix(matrix, ctx.io),
        });
      }),
    );
}
