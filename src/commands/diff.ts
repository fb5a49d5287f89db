import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { buildProbeBody } from "../views/find-versions.js";
import { examples, withContext } from "./shared.js";
import { HOW_VERSIONS_ARE_FOUND } from "./versions.js";

interface Opts {
  dryRun?: boolean;
}

/**
 * `coverage diff OLD_ID NEW_ID`, `coverage diff POLICY_KEY` (its two latest versions) or
 * `coverage diff VERSION_ID` (that version and the one before it).
 */
export function registerDiff(program: Command, run: RunEnvironment): void {
  program
    .command("diff")
    .description("what changed between two policy versions: codes, applicability, fields, criteria")
    .argument(
      "<old_id_or_key>",
      "the older version id; alone, a policy key (its two latest versions) or a version id (it and the one before)",
    )
    .argument("[new_id]", "the newer version id")
    .option("--dry-run", "print the requests (the first one, for a key) instead of sending them")
    .addHelpText(
      "after",
      "\nWith two ids: GET /v1/policies/{id} for each. With a key: its versions are found first.\n" +
        HOW_VERSIONS_ARE_FOUND +
        "The criteria are shown as a unified diff, coloured on a terminal.\n" +
        examples([
          "coverage diff cms-lcd/L33718",
          "coverage diff cms-lcd/L33718/2024-01-01 cms-lcd/L33718/2026-11-01",
          "coverage diff aetna/cpb/0325 --json",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [oldArg, newArg]) => {
        const offline = ctx.offlineClient();
        const pair = newArg === undefined ? undefined : [oldArg as string, newArg as string];
        const requests = pair
          ? pair.map((id) => offline.build.policy(id))
          : [offline.build.filter(buildProbeBody(0))];
        if (opts.dryRun) return requests.forEach((r) => ctx.printDryRun(r));
        const fetch = await import("../views/fetch.js");
        const client = await ctx.client();
        const ids = pair ?? (await fetch.findDiffPair(client, oldArg as string));
        const detail = fetch.createDetailCache(client);
        const [first, second] = await fetch.mapLimited(ids, detail);
        // Given newest first (`diff NEW OLD`): shown from the older to the newer, and said so.
        const swap = pair !== undefined && second!.effective_from_date < first!.effective_from_date;
        const [older, newer] = swap ? [second, first] : [first, second];
        if (swap)
          ctx.inform(
            `${first!.policy_id} is the newer version (given first): showing the changes from ${older!.policy_id} to ${newer!.policy_id}.`,
          );
        const { diffPolicies } = await import("../views/policy-diff.js");
        const diff = diffPolicies(older!, newer!);
        const { findCmsRevisions } = await import("../pull/revision-notes.js");
        const revisions = findCmsRevisions(client.transport, [older!, newer!]);
        if (revisions.size)
          diff.cms_revision = {
            old: revisions.get(older!.policy_id) ?? null,
            new: revisions.get(newer!.policy_id) ?? null,
          };
        const { writeView } = await import("../output/view-output.js");
        const { format, formatAsked } = ctx.settings;
        await writeView(diff, {
          // A csv or ndjson default (COVERAGE_FORMAT, the profile) is for lists: let be here.
          format: !formatAsked && (format === "csv" || format === "ndjson") ? "table" : format,
          io: ctx.io,
          command: "diff",
          renderTable: async () =>
            (await import("../output/diff-view.js")).renderDiff(diff, ctx.io),
        });
      }),
    );
}
