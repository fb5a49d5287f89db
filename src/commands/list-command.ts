import type { ApiRequest } from "../api/request.js";
import type { ApiClient } from "../backend/client.js";
import { fetchPages } from "../backend/paginate.js";
import type { CommandContext } from "../cli/context.js";
import type { Envelope } from "../contract/index.js";
import { readHoldLimit } from "../output/hold-limit.js";
import { writeList, type ListOutput } from "../output/list.js";

export interface ListCommand<T> {
  /** Request input before validation (a filter body or a query object). */
  input: Record<string, unknown>;
  /** Validates an input with the contract and builds its request (throws exit 2). */
  build: (client: ApiClient, input: Record<string, unknown>) => ApiRequest;
  send: (client: ApiClient, request: ApiRequest) => Promise<Envelope<T>>;
  all: boolean;
  dryRun: boolean;
  /** How to show the items; called once the backend is open (so it may ask for today). */
  view: () => Promise<Omit<ListOutput<T>, "format" | "io" | "all" | "notice">>;
}

/**
 * The one flow of every list command: validate, `--dry-run` or send, page through with
 * `--all`, and write in the chosen format.
 */
export async function runListCommand<T>(ctx: CommandContext, spec: ListCommand<T>): Promise<void> {
  const build = (input: Record<string, unknown>) => spec.build(ctx.offlineClient(), input);
  const request = build(spec.input);
  if (spec.dryRun) return ctx.printDryRun(request);
  const holdLimit = readHoldLimit(ctx.env);
  const client = await ctx.client();
  const start = typeof spec.input.offset === "number" ? spec.input.offset : 0;
  const pages = fetchPages(
    spec.all,
    (offset) => spec.send(client, offset === start ? request : build({ ...spec.input, offset })),
    start,
    ctx.warn,
  );
  const view = await spec.view();
  const { format } = ctx.settings;
  await writeList(pages, {
    ...view,
    format,
    io: ctx.io,
    all: spec.all,
    notice: ctx.notice,
    holdLimit,
  });
}
