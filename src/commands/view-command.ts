import type { Command } from "commander";
import type { CommandContext } from "../cli/context.js";
import type { ApiClient } from "../backend/client.js";
import type { CodeReference, Envelope, Policy, PolicyUpdate } from "../contract/index.js";
import type { UpdateNarrowing } from "../views/update-changes.js";
import { confirmPayerByLobs, listCatalogueIds } from "../backend/catalogue-ids.js";
import { LOB_CATEGORIES } from "../contract/index.js";
import { respellInput } from "../requests/catalogue-ids.js";
import { SEARCH_ID_FIELDS } from "../requests/search.js";
import { buildCodeViewBody, codeViewFlagFor, type CodeViewFlags } from "../requests/views.js";
import { levelOneHint } from "../requests/code-formats.js";
import { stateExpansionNotice } from "../requests/parse-flags.js";
import { SUB_STATE_HELP } from "../requests/sub-states.js";
import { collect, EXACT_STATE_FLAG } from "./shared.js";

/** Adds the narrowing options shared by `code` and `matrix`. */
export function addCodeViewOptions(command: Command): Command {
  return command
    .option(
      "--state <codes>",
      "only scopes in these states (nationwide included; repeatable; CA, NY, MO bring their Medicare sub-state codes, NF, SF, DN, QN, UN, EM, WM their state)",
      collect,
    )
    .option(...EXACT_STATE_FLAG)
    .option("--lob <categories>", `LOB categories: ${LOB_CATEGORIES.join(", ")}`, collect)
    .option("--payer <ids>", "payer ids (repeatable, comma-separated)", collect)
    .option("--effective-on <date>", "the day to look at (default: today)")
    .option("--dry-run", "print the first request instead of sending it")
    .addHelpText("after", SUB_STATE_HELP);
}

/**
 * The one flow of `code` and `matrix`: the filter body for the code on the day, `--dry-run`
 * (the first page's request; undefined is returned), else every page's items.
 */
export async function fetchCodeView(
  ctx: CommandContext,
  ref: CodeReference,
  flags: CodeViewFlags & { dryRun?: boolean },
): Promise<{ items: Policy[]; day: string } | undefined> {
  const day = flags.effectiveOn ?? (await ctx.today());
  const body = buildCodeViewBody(ref, flags, day);
  const widened = stateExpansionNotice(flags);
  if (widened) ctx.inform(widened);
  const first = ctx.offlineClient().build.filter({ ...body, offset: 0 }, codeViewFlagFor);
  if (flags.dryRun) {
    ctx.printDryRun(first);
    ctx.notice("Further pages are asked for while the answer says has_more.");
    return undefined;
  }
  const { fetchAllPolicies } = await import("../views/fetch.js");
  const client = await ctx.client();
  // Payer ids match in any case, as in `search`: spelled as the catalogue spells them.
  const asked = await respellInput(
    body,
    SEARCH_ID_FIELDS,
    (kind) => listCatalogueIds(client, kind, ctx.warn),
    (id) => confirmPayerByLobs(client, id),
  );
  const items = await fetchAllPolicies(client, asked, codeViewFlagFor, ctx.warn);
  // A CPT-shaped HCPCS: code that found nothing is most likely listed as CPT.
  const levelOne = items.length ? undefined : levelOneHint([ref]);
  if (levelOne) ctx.warn(levelOne);
  return { items, day };
}

/**
 * The page transform of `updates` with narrowing or `--changes`, loaded with its first page
 * (the plain `updates` never loads it).
 */
export function createLazyUpdatesTransform(
  narrowing: UpdateNarrowing | undefined,
  changes: boolean,
):
  | ((client: ApiClient, page: Envelope<PolicyUpdate>) => Promise<Envelope<PolicyUpdate>>)
  | undefined {
  if (!narrowing && !changes) return undefined;
  let transform: ((page: Envelope<PolicyUpdate>) => Promise<Envelope<PolicyUpdate>>) | undefined;
  return async (client, page) => {
    transform ??= (await import("../views/fetch-updates.js")).createUpdatesTransform(
      client,
      narrowing ?? {},
      changes,
    );
    return transform(page);
  };
}
