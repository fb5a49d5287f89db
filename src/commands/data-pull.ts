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
    .option("--force", "download and import again even when nothing changed")
    .option("--source <url>", "the folder of the MCD exports (default: CMS's downloads folder)")
    .option("--icd10cm-url <url>", "the ICD-10-CM descriptions zip, or a page that links it")
    .option("--hcpcs-url <url>", "the HCPCS Level II alpha-numeric zip, or a page that links it")
    .option(
      "--with <kinds>",
      "also Medicare's edits, fees and prior-authorization lists: edits,fees,pa (files behind CMS's licence page are named with the command that imports them)",
    )
    .option(
      "--dmepos-url <url>",
      "with --with fees: the DMEPOS fee schedule zip, or a page that links it",
    )
    .addHelpText(
      "after",
      "\nWrites medicare.db in your data folder ($XDG_DATA_HOME/coverage, else ~/.local/share/coverage;\nthe platform's own on macOS and Windows), replacing the previous one only when the whole pull\nsucceeded. The next pull asks CMS whether anything changed and says so when nothing did.\n" +
        examples([
          "coverage data pull medicare",
          "coverage --data medicare search --code HCPCS:E0601 --state NF",
          "coverage data pull medicare --history --no-codes",
          "coverage data pull medicare --with edits,fees,pa",
        ]),
    )
    .action(
      withContext<PullFlags & { with?: string; dmeposUrl?: string }>(run, async (ctx, opts) => {
        const rules = await import("../pull/medicare-rules.js");
        const kinds = rules.parseRuleKinds(opts.with);
        const { pullMedicare } = await import("../pull/medicare.js");
        await pullMedicare(opts, ctx, run);
        await rules.pullMedicareRules(kinds, opts, ctx);
      }),
    );
}
