import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { withPlainSummary } from "../domain/plain-text.js";
import { writeRecord } from "../output/record.js";
import { stripControls } from "../output/terminal.js";
import { describeMissingFile } from "../views/file-variants.js";
import { buildProbeBody } from "../views/find-versions.js";
import { splitPolicyId } from "../views/policy-key.js";
import { examples, refuseFormat, withContext } from "./shared.js";
import { HOW_VERSIONS_ARE_FOUND } from "./versions.js";

interface Opts {
  criteria?: boolean;
  dryRun?: boolean;
}

/** `coverage policy POLICY_ID|POLICY_KEY` → `GET /v1/policies/{policy_id}`. */
export function registerPolicy(program: Command, run: RunEnvironment): void {
  program
    .command("policy")
    .description("show one policy version: dates, state, applicability, codes and criteria")
    .argument(
      "<policy_id>",
      "the full policy id (as `search` lists it), or its key without the date for today's version",
    )
    .option("--criteria", "print only the criteria text (markdown)")
    .option("--dry-run", "print the request (the first one, for a key) instead of sending it")
    .addHelpText(
      "after",
      "\nA key (cms-lcd/L33718) means the version in effect today, else the latest. An id whose\n" +
        "date starts no version lists the versions that exist (exit 4).\n" +
        HOW_VERSIONS_ARE_FOUND +
        examples([
          "coverage policy cms-lcd/L33718",
          "coverage policy cms-lcd/L33718/2026-11-01 --criteria",
          "coverage policy aetna/cpb/0004/2026-09-01 --json",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [arg]) => {
        const offline = ctx.offlineClient();
        const direct = offline.build.policy(arg as string);
        const isKey = !splitPolicyId(arg as string);
        if (opts.dryRun)
          return ctx.printDryRun(isKey ? offline.build.filter(buildProbeBody(0)) : direct);
        if (opts.criteria)
          refuseFormat(
            ctx,
            "policy --criteria",
            "--criteria prints the criteria as markdown; `policy ID --json` has them in criteria_text.",
          );
        const client = await ctx.client();
        const fetch = await import("../views/fetch.js");
        const detail = await fetch.getPolicyByArg(client, arg as string, await ctx.today(), (id) =>
          client.policy(client.build.policy(id)),
        );
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
        // On a pulled snapshot: the day CMS says the document retires, for the version then open.
        const { findCmsRetirement } = await import("../pull/revision-notes.js");
        const retires = findCmsRetirement(
          client.transport,
          splitPolicyId(detail.policy_id)?.key ?? "",
        );
        const retiresOn =
          retires && (detail.effective_to_date === null || detail.effective_to_date > retires)
            ? retires
            : null;
        // Loaded here: the markdown renderer (marked-terminal) costs ~150 ms at startup.
        const { renderPolicyView } = await import("../output/policy-view.js");
        // Said in the table only (finding 28: `File type html` for a version with no file).
        const missingFile =
          ctx.settings.format === "table"
            ? await describeMissingFile(client, detail.policy_id, detail.file_type)
            : undefined;
        await writeRecord(detail, {
          format: ctx.settings.format,
          io: ctx.io,
          rows: [ctx.settings.format === "csv" ? withPlainSummary(detail) : detail],
          renderTable: () => renderPolicyView(detail, ctx.io, today, retiresOn, missingFile),
        });
      }),
    );
}
