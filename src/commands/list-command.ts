import type { ApiRequest } from "../api/request.js";
import type { ApiClient } from "../backend/client.js";
import { fetchPages } from "../backend/paginate.js";
import type { CommandContext } from "../cli/context.js";
import type { Envelope } from "../contract/index.js";
import { isTabular, parseFields, type FieldNames } from "../output/fields.js";
import { readHoldLimit } from "../output/hold-limit.js";
import { writeList, type ListOutput } from "../output/list.js";
import type { IdField } from "../requests/catalogue-ids.js";
import { sendTypedIds } from "./typed-ids.js";

export interface ListCommand<T> {
  /** Request input before validation (a filter body or a query object). */
  input: Record<string, unknown>;
  /** Validates an input with the contract and builds its request (throws exit 2). */
  build: (client: ApiClient, input: Record<string, unknown>) => ApiRequest;
  send: (client: ApiClient, request: ApiRequest) => Promise<Envelope<T>>;
  all: boolean;
  dryRun: boolean;
  /** Payer and LOB ids of the input, put in the catalogue's spelling before sending. */
  idFields?: readonly IdField[];
  /** `--fields` as given, and the names it may take. */
  fields?: string[];
  fieldNames: FieldNames;
  /**
   * The input sent for a table or CSV, when its columns need more than the user asked for
   * (`--json` and `--dry-run` keep the user's request).
   */
  widen?: (input: Record<string, unknown>, fields: string[] | undefined) => Record<string, unknown>;
  /** Reshapes each page once received (narrowing, added fields); paging follows the raw pages. */
  transform?: (client: ApiClient, page: Envelope<T>) => Promise<Envelope<T>>;
  /**
   * Set when the transform narrows (drops items), to an item's key: without `--all`, further
   * raw pages are read until the page holds `limit` items or the list ends, and stderr says
   * when more may remain.
   */
  fillKey?: (item: T) => string;
  /** The `limit` of a page when the input sets none (the server's default). */
  defaultLimit?: number;
  /** How to show the items; called once the backend is open (so it may ask for today). */
  view: (
    fields: string[] | undefined,
  ) => Promise<Omit<ListOutput<T>, "format" | "io" | "all" | "notice" | "fields">>;
}

/**
 * The one flow of every list command: validate, `--dry-run` or send, page through with
 * `--all`, and write in the chosen format.
 */
export async function runListCommand<T>(ctx: CommandContext, spec: ListCommand<T>): Promise<void> {
  const { format } = ctx.settings;
  const fields = parseFields(spec.fields, spec.fieldNames, format);
  const build = (input: Record<string, unknown>) => spec.build(ctx.offlineClient(), input);
  const asked = build(spec.input);
  if (spec.dryRun) return ctx.printDryRun(asked);
  const holdLimit = readHoldLimit(ctx.env);
  const client = await ctx.client();
  // Every check has passed; only now is anything sent. The ids go as typed (typed-ids.ts).
  const widen = (i: Record<string, unknown>) =>
    isTabular(format) && spec.widen ? spec.widen(i, fields) : i;
  const requestOf = (i: Record<string, unknown>) => (i === spec.input ? asked : build(i));
  const first = await sendTypedIds(
    ctx,
    client,
    spec.input,
    spec.idFields ?? [],
    (i) => spec.send(client, requestOf(widen(i))),
    (page) => page.data,
  );
  const input = widen(first.input);
  const request = requestOf(input);
  const start = typeof input.offset === "number" ? input.offset : 0;
  // The first page is the one already received; the others are asked for.
  let firstPage: Envelope<T> | undefined = first.answer;
  const sendPage = (offset: number): Promise<Envelope<T>> => {
    const page = offset === start ? firstPage : undefined;
    firstPage = undefined;
    if (page) return Promise.resolve(page);
    return spec.send(client, offset === start ? request : build({ ...input, offset }));
  };
  const raw = fetchPages(spec.all, sendPage, start, ctx.warn);
  const view = await spec.view(fields);
  const { transform } = spec;
  const output = {
    ...view,
    format,
    io: ctx.io,
    all: spec.all,
    // A partial answer says so on stderr, terminal or not (a script's CSV too), never with -q.
    notice: ctx.inform,
    fields,
    holdLimit,
  };
  if (!transform) return writeList(raw, output);
  if (spec.fillKey && !spec.all) {
    const limit = typeof input.limit === "number" ? input.limit : (spec.defaultLimit ?? 20);
    const send = sendPage;
    const narrow = (page: Envelope<T>) => transform(client, page);
    const page = await fillPage(send, narrow, spec.fillKey, start, limit, ctx.warn);
    if (page.has_more)
      ctx.warn(
        `more items may match after these ${page.data.length}: add --offset ${page.next}, or --all for every page.`,
      );
    return writeList(
      (async function* () {
        yield page;
      })(),
      { ...output, moreHint: undefined },
    );
  }
  // The next offset is the raw page's: a narrowed page holds fewer items than were skipped.
  let next = start;
  async function* reshaped(): AsyncGenerator<Envelope<T>> {
    for await (const page of raw) {
      next = page.offset + page.data.length;
      yield await transform!(client, page);
    }
  }
  const moreHint = view.moreHint && (() => view.moreHint!(next));
  await writeList(reshaped(), { ...output, moreHint });
}

/**
 * One page of `limit` narrowed items: raw pages are read from `start` and narrowed until the
 * page is full or the list ends. `next` is the raw offset just after the last item kept (found
 * in its raw page by key, since a transform may copy items).
 */
async function fillPage<T>(
  send: (offset: number) => Promise<Envelope<T>>,
  narrow: (page: Envelope<T>) => Promise<Envelope<T>>,
  keyOf: (item: T) => string,
  start: number,
  limit: number,
  warn: (message: string) => void,
): Promise<Envelope<T> & { next: number }> {
  const kept: T[] = [];
  let next = start;
  let more = false;
  for await (const raw of fetchPages(true, send, start, warn)) {
    const narrowed = (await narrow(raw)).data;
    const room = limit - kept.length;
    if (narrowed.length >= room) {
      const taken = narrowed.slice(0, room);
      kept.push(...taken);
      const last = taken[taken.length - 1];
      const at = last === undefined ? -1 : raw.data.findIndex((r) => keyOf(r) === keyOf(last));
      next = raw.offset + (at >= 0 ? at + 1 : raw.data.length);
      more = next < raw.offset + raw.data.length || raw.has_more;
      break;
    }
    kept.push(...narrowed);
    next = raw.offset + raw.data.length;
    more = raw.has_more;
  }
  return { data: kept, limit, offset: start, has_more: more, next };
}
