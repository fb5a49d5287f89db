import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { UsageError } from "../errors.js";
import { examples, withContext } from "./shared.js";

interface Opts {
  into: string;
  program?: "medicare" | "medicaid";
}

const GROUPS = {
  edits: {
    what: "NCCI PTP edits (ccipra-*, ccioph-*, split in parts), MUE tables and add-on code edits (AOC_*.xlsx), Medicare or Medicaid",
    arg: "ccipra-v322r0-f1.zip ... MCR_MUE_PractitionerServices_Eff_07-01-2026.csv ... AOC_V2026Q2-MCR.zip ... or folders",
    example:
      "coverage data import edits medicare-ncci-2026q3-practitioner-ptp-edits-ccipra-v322r0-f*.zip --into medicare",
  },
  fees: {
    what: "the PFS relative value file (PPRRVU*.csv in rvuNN*.zip), GPCIs and the DMEPOS fee schedule",
    arg: "rvu26c.zip (PPRRVU2026_Jul_nonQPP.csv, GPCI2026.csv), DMEPOS26_JUL.csv ... or folders",
    example:
      "coverage data import fees rvu26c-updated-06-30-2026.zip dmepos26_jul.zip --into medicare",
  },
  pa: {
    what: "prior-authorization lists as CSV (code, program, category, states, from, to, source); none given: the list shipped with coverage",
    arg: "lists as CSV (default: the shipped list)",
    example: "coverage data import pa --into medicare",
  },
} as const;

function parseProgram(value: string): "medicare" | "medicaid" {
  if (value === "medicare" || value === "medicaid") return value;
  throw new UsageError(
    `--program: '${value}' is not medicare or medicaid`,
    "Give --program medicare or --program medicaid.",
  );
}

/** `coverage data import edits|fees|pa PATH... --into SNAPSHOT`: Medicare's rules into a snapshot. */
export function registerRuleImports(group: Command, run: RunEnvironment): void {
  for (const [name, g] of Object.entries(GROUPS)) {
    const cmd = group
      .command(name)
      .description(`import ${g.what} into a snapshot`)
      .argument(name === "pa" ? "[path...]" : "<path...>", g.arg)
      .requiredOption(
        "--into <snapshot>",
        "the snapshot to add them to (a file, or a name in the data folder such as medicare); made when missing",
      )
      .addHelpText(
        "after",
        "\nFiles as CMS publishes them, zipped or not; a file of another kind is refused (exit 2) and\nnothing is imported. Each file's release is recorded and named by `code` and `check`. A file\nreplaces the earlier one of its kind, setting and part. CPT descriptions are never read.\n" +
          examples([g.example, "coverage --data medicare code CPT:64483 --state TX --edits"]),
      );
    if (name === "edits")
      cmd.option(
        "--program <program>",
        "medicare or medicaid (default: from the file's name and layout)",
        parseProgram,
      );
    cmd.action(
      withContext<Opts>(run, async (ctx, opts, [paths]) => {
        const [{ importRules }, { resolveRuleTarget, shippedPriorAuthList }, { printRuleImport }] =
          await Promise.all([
            import("../import/medicare/run.js"),
            import("../import/medicare/targets.js"),
            import("../output/rule-import-view.js"),
          ]);
        const given = (paths as string[] | undefined) ?? [];
        const files = name === "pa" && given.length === 0 ? [shippedPriorAuthList()] : given;
        const into = await resolveRuleTarget(opts.into, ctx.env);
        const done = await importRules(name as keyof typeof GROUPS, files, into, {
          program: opts.program,
          now: new Date(),
          signal: ctx.signal,
        });
        printRuleImport(done, into, ctx.io);
      }),
    );
  }
}
