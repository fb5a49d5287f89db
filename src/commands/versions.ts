import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { UsageError } from "../errors.js";
import { VERSION_CSV_COLUMNS } from "../output/columns.js";
import { buildProbeBody } from "../views/find-versions.js";
import { splitPolicyId } from "../views/policy-key.js";
import { examples, withContext } from "./shared.js";

interface Opts {
  dryRun?: boolean;
}

/** How versions are found over the API, for the help of `versions`, `diff` and `policy`. */
export const HOW_VERSIONS_ARE_FOUND =
  '\nHow versions are found: the API has no "versions of one policy" endpoint. Sorted by\n' +
  "policy id, the versions of KEY stand together (KEY/date), so a galloping then binary search\n" +
  "over POST /v1/policies/filter pages (sort policy_id_asc, 100 a page) finds them: about\n" +
  "2*log2(versions/100) requests (~8 for 10,000 versions, ~20 for 1,000,000), at most 64.\n";

/** `coverage versions POLICY_KEY`: every version with its dates, state and what changed. */
export function registerVersions(program: Command, run: RunEnvironment): void {
  program
    .command("versions")
    .description("every version of a policy: dates, state, what changed from the previous one")
    .argument("<policy_key>", "the policy id without its date, e.g. cms-lcd/L33718")
    .option("--dry-run", "print the first request instead of sending it")
    .addHelpText(
      "after",
      HOW_VERSIONS_ARE_FOUND +
        "Then GET /v1/policies/{id} for each version (at most 200), to compare each with the last.\n" +
        examples([
          "coverage versions cms-lcd/L33718",
          "coverage versions aetna/cpb/0325 --json",
          "coverage versions cms-article/A52464 --format csv",
        ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [arg]) => {
        const trimmed = (arg as string).trim();
        const key = splitPolicyId(trimmed)?.key ?? trimmed;
        const offline = ctx.offlineClient();
        if (opts.dryRun) return ctx.printDryRun(offline.build.filter(buildProbeBody(0)));
        const fetch = await import("../views/fetch.js");
        const client = await ctx.client();
        const found = await fetch.findVersionsOrFail(
          fetch.createVersionFinder(client),
          key,
          client,
        );
        if (found.length > fetch.MAX_VERSIONS)
          throw new UsageError(
            `${key} has ${found.length} versions; versions compares at most ${fetch.MAX_VERSIONS}`,
            "Compare two of them with `coverage diff OLD_ID NEW_ID`.",
          );
        const detail = fetch.createDetailCache(client);
        const details = await fetch.mapLimited(found, (v) => detail(v.policy_id));
        const { buildVersionsReport, flattenVersions } = await import("../views/versions.js");
        const notes = await import("../pull/revision-notes.js");
        const report = buildVersionsReport(
          key,
          details,
          await ctx.today(),
          notes.findCmsRevisions(client.transport, details),
          notes.findCmsRetirement(client.transport, key),
        );
        const { writeView } = await import("../output/view-output.js");
        await writeView(report, {
          format: ctx.settings.format,
          io: ctx.io,
          command: "versions",
          rows: flattenVersions(report),
          csvColumns: VERSION_CSV_COLUMNS,
          renderTable: async () =>
            (await import("../output/diff-view.js")).renderVersions(report, ctx.io),
        });
      }),
    );
}
