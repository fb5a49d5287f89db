import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { writeRecord } from "../output/record.js";
import { stripControls } from "../output/terminal.js";
import { examples, withContext } from "./shared.js";

interface Opts {
  criteria?: boolean;
  dryRun?: boolean;
}

/** `coverage policy POLICY_ID` → `GET /v1/policies/{policy_id}`. */
export function registerPolicy(program: Command, run: RunEnvironment): void {
  program
    .command("policy")
    .description("show one policy version: dates, state, applicability, codes and criteria")
    .argument("<policy_id>", "the full policy id, slashes included (as `search` lists it)")
    .option("--criteria", "print only the criteria text (markdown)")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      examples([
        "coverage policy cms-ncd/240.4/2008-03-13",
        "coverage policy cms-lcd/L33718/2026-11-01 --criteria",
        "coverage policy aetna/cpb/0004/2026-09-01 --json",
      ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [id]) => {
        const request = ctx.offlineClient().build.policy(id as string);
        if (opts.dryRun) return ctx.printDryRun(request);
        const detail = await (await ctx.client()).policy(request);
        if (opts.criteria) {
          if (detail.criteria_text === null) {
            ctx.warn(`no criteria text has been extracted for ${detail.policy_id} yet`);
            return;
          }
          const text = ctx.io.stdoutIsTTY
            ? stripControls(detail.criteria_text)
            : detail.criteria_text;
          ctx.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
          return;
        }
        const today = await ctx.today();
        // Loaded here: the markdown renderer (marked-terminal) costs ~150 ms at startup.
        const { renderPolicyView } = await import("../output/policy-view.js");
        await writeRecord(detail, {
          format: ctx.settings.format,
          io: ctx.io,
          renderTable: () => renderPolicyView(detail, ctx.io, today),
        });
      }),
    );
}
