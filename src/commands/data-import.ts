import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import type { ImportFlags } from "../import/mcd/run.js";
import { UsageError } from "../errors.js";
import { registerRuleImports } from "./data-import-rules.js";
import { examples, withContext } from "./shared.js";

function parseMaxLinks(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(
      `--max-links: '${value}' is not a whole number of 1 or more`,
      "Give a count such as 2000000.",
    );
  return n;
}

/** `coverage data import mcd PATH... -o OUT`: the CMS Medicare Coverage Database export. */
export function registerDataImport(data: Command, run: RunEnvironment): void {
  const group = data
    .command("import")
    .description("import public coverage data into a dataset (JSON) or snapshot");
  group
    .command("mcd")
    .description(
      "import the CMS Medicare Coverage Database export (zips as downloaded, or extracted folders)",
    )
    .argument(
      "<path...>",
      "all_data.zip, current_lcd.zip, current_article.zip, ncd.zip, ... or folders",
    )
    .requiredOption("-o, --output <file>", "the dataset to write: OUT.json (or OUT.db, a snapshot)")
    .option("--icd10cm <file>", "ICD-10-CM descriptions: CMS's icd10cm_order_YYYY.txt (or its zip)")
    .option(
      "--hcpcs <file>",
      "HCPCS Level II descriptions: CMS's HCPC<YYYY>_<MON>_ANWEB.txt (or its zip)",
    )
    .option("--strict", "fail on the first malformed row instead of skipping it")
    .option("--force", "replace an existing output")
    .option(
      "--max-links <n>",
      "the most the import keeps in memory, counted in code links (default 2000000; more is refused as a bomb)",
      parseMaxLinks,
    )
    .addHelpText(
      "after",
      "\nProposed and draft documents are left out; CPT descriptions are never imported. A summary\n(documents, links, codes, skipped rows and why) goes to stderr.\n" +
        examples([
          "coverage data import mcd all_data.zip -o medicare.json",
          "coverage data import mcd current_lcd.zip current_article.zip ncd.zip -o medicare.json --icd10cm icd10cm_order_2025.txt --hcpcs HCPC2025_JAN_ANWEB.txt",
          "coverage --data medicare.json search --code ICD10CM:E11.9 --state NF",
        ]),
    )
    .action(
      withContext<ImportFlags>(run, async (ctx, opts, [paths]) => {
        const [{ runMcdImport }, { outputComplete }] = await Promise.all([
          import("../import/mcd/run.js"),
          import("../files/temp-output.js"),
        ]);
        await runMcdImport(paths as string[], opts, ctx);
        outputComplete();
      }),
    );
  registerRuleImports(group, run);
}
