import type { Command } from "commander";
import type { RunEnvironment } from "../cli/context.js";
import { createProgress, formatBytes } from "../download/progress.js";
import { formatJson } from "../output/terminal.js";
import { downloadVariant } from "../requests/download.js";
import { examples, refuseFormat, withContext } from "./shared.js";

interface Opts {
  text?: boolean;
  output?: string;
  force?: boolean;
  urlOnly?: boolean;
  dryRun?: boolean;
}

/** `coverage download POLICY_ID` → `GET /v1/policies/{policy_id}/download-url`, then the file. */
export function registerDownload(program: Command, run: RunEnvironment): void {
  program
    .command("download")
    .description("save a policy's stored file (the original, or --text for markdown)")
    .argument("<policy_id>", "the full policy id, slashes included")
    .option("--text", "the markdown text version (variant text) instead of the original file")
    .option(
      "-o, --output <path>",
      "a file, a folder, or - for stdout (default: the suggested name in the current folder)",
    )
    .option("--force", "overwrite an existing file; with -o -, write a binary file to a terminal")
    .option("--url-only", "print the download link (the API's JSON) instead of downloading")
    .option("--dry-run", "print the link request instead of sending it")
    .addHelpText(
      "after",
      examples([
        "coverage download cms-lcd/L33718/2026-11-01",
        "coverage download cms-ncd/240.4/2008-03-13 --text -o -",
        "coverage download aetna/cpb/0004/2026-09-01 --text -o cpb-0004.md --force",
      ]),
    )
    .action(
      withContext<Opts>(run, async (ctx, opts, [id]) => {
        const request = ctx.offlineClient().build.downloadUrl(id as string, downloadVariant(opts));
        if (opts.dryRun) return ctx.printDryRun(request);
        if (!opts.urlOnly)
          refuseFormat(
            ctx,
            "download",
            "download saves the file; --url-only prints its link (--json, --format ndjson or csv).",
          );
        // A fresh link for every download: links are short-lived and never cached. A key
        // (cms-lcd/L33718) means today's version, as for `policy`.
        const client = await ctx.client();
        const fetch = await import("../views/fetch.js");
        const variant = downloadVariant(opts);
        const { explainNoFile, isNoFileStored } = await import("../views/file-variants.js");
        const link = await fetch.getPolicyByArg(client, id as string, await ctx.today(), (v) =>
          client
            .downloadUrl(v === id ? request : client.build.downloadUrl(v, variant))
            // No file of that kind: said now, with what is stored, before any download.
            .catch(async (err: unknown) => {
              throw isNoFileStored(err) ? await explainNoFile(client, v, variant) : err;
            }),
        );
        if (opts.urlOnly) {
          // The link object: as JSON by default, one line in ndjson, one row in csv.
          const { writeView } = await import("../output/view-output.js");
          return writeView(link, {
            format: ctx.settings.format,
            io: ctx.io,
            renderTable: () => formatJson(ctx.io, link, 2),
            rows: [link],
            csvColumns: Object.keys(link),
            command: "download --url-only",
          });
        }
        // Loaded here, not at start-up: only a download writes files or handles SIGTERM.
        const [{ saveDownload }, { runTerminable }] = await Promise.all([
          import("../download/save-file.js"),
          import("../download/termination.js"),
        ]);
        const progress = await createProgress(ctx.io, ctx.settings.quiet);
        const saved = await runTerminable(ctx.signal, (signal) =>
          saveDownload(link, {
            output: opts.output,
            force: Boolean(opts.force),
            cwd: process.cwd(),
            signal,
            timeoutMs: ctx.settings.timeoutMs,
            env: ctx.env,
            stdout: ctx.io.stdout,
            stdoutIsTTY: ctx.io.stdoutIsTTY,
            progress,
            verbose: ctx.settings.verbose ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
            // A Ctrl-C after this no longer makes the exit code 130: the file is there.
            onComplete: () => run.completed?.(),
            warn: ctx.warn,
          }),
        );
        // Said off a TTY too: a script's log shows where the file went (finding 27).
        if (saved.path) ctx.inform(`Saved ${saved.path} (${formatBytes(saved.bytes)})`);
      }),
    );
}
