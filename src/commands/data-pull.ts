import { Argument, type Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import type { PullFlags } from "../pull/medicare.js";
import { examples, withContext } from "./shared.js";

/** `coverage data pull medicare`: the real Medicare catalogue, fetched, checked and kept current. */
export function registerDataPull(data: Command, run: RunEnvironment): void {
  data
    .command("pull")
    .description(
      "download the real Medicare catalogue from CMS and import it into a snapshot of your data folder",
    )
    .addArgument(new Argument("<catalogue>", "what to pull").choices(["medicare"]))
    .option("--history", "the all_ exports: retired versions too (larger)")
    .option("--no-codes", "skip the ICD-10-CM and HCPCS code description files")
    .option(
      "--force",
      "download and import again even when nothing changed; take an export older than the snapshot's",
    )
    .option("--source <url>", "the folder of the MCD exports (default: CMS's downloads folder)")
    .option("--icd10cm-url <url>", "the ICD-10-CM descriptions zip, or a page that links it")
    .option("--hcpcs-url <url>", "the HCPCS Level II alpha-numeric zip, or a page that links it")
    .option(
      "--stall-timeout <seconds>",
      "give a download up after this long without a byte (default 60; env COVERAGE_PULL_STALL_TIMEOUT)",
    )
    .option(
      "--deadline <seconds>",
      "give a file up after this long in all (default 5 min plus 1 s per 100 KB; env COVERAGE_PULL_DEADLINE)",
    )
    .option(
      "--with <kinds>",
      "also Medicare's edits, fees and prior-authorization lists: edits,fees,pa (files behind CMS's licence page are named with the command that imports them)",
    )
    .option(
      "--dmepos-url <url>",
      "with --with fees: the DMEPOS fee schedule zip, or a page that links it",
    )
    .option(
      "--medicaid-ncci-url <url>",
      "with --with edits: a Medicaid NCCI PTP or MUE zip, or the page that links them (default: CMS's)",
    )
    .addHelpText(
      "after",
      "\nWrites medicare.db in your data folder ($XDG_DATA_HOME/coverage, else ~/.local/share/coverage;\nthe platform's own on macOS and Windows), replacing the previous one only when the whole pull\nsucceeded. The next pull asks CMS whether anything changed and says so when nothing did.\nEach pull keeps the versions it has seen and records what changed, document by document:\n--json prints the changes; `coverage data changes` lists them later.\nNo network? Exports you already have import offline: coverage data import mcd FILES...\n" +
        examples([
          "coverage data pull medicare",
          "coverage --data medicare search --code HCPCS:E0601 --state NF",
          "coverage data pull medicare --history --no-codes",
          "coverage data pull medicare --json > changes.json",
          "coverage data pull medicare --with edits,fees,pa",
        ]),
    )
    .action(
      withContext<PullFlags & { with?: string; dmeposUrl?: string; medicaidNcciUrl?: string }>(
        run,
        async (ctx, opts) => {
          const rules = await import("../pull/medicare-rules.js");
          const kinds = rules.parseRuleKinds(opts.with);
          const { pullMedicare } = await import("../pull/medicare.js");
          await pullMedicare(opts, ctx, run);
          await rules.pullMedicareRules(kinds, opts, ctx);
        },
      ),
    );
}
