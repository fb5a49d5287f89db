import type { IdKind } from "../requests/catalogue-ids.js";
import type { ApiClient } from "./client.js";
import { fetchPages } from "./paginate.js";

/**
 * Every payer id or LOB id of the catalogue, page by page (100 at a time), over whichever backend
 * the client has: the in-process engine reads its dataset, the HTTP client asks the API.
 */
export async function listCatalogueIds(
  client: ApiClient,
  kind: IdKind,
  warn: (message: string) => void,
): Promise<string[]> {
  const ids: string[] = [];
  if (kind === "payer") {
    const fetchPage = (offset: number) =>
      client.payers(client.build.payers({ limit: 100, offset }));
    for await (const page of fetchPages(true, fetchPage, 0, warn))
      ids.push(...page.data.map((p) => p.payer_id));
  } else {
    const fetchPage = (offset: number) => client.lobs(client.build.lobs({ limit: 100, offset }));
    for await (const page of fetchPages(true, fetchPage, 0, warn))
      ids.push(...page.data.map((l) => l.lob_id));
  }
  return ids;
}

/**
 * A payer id that has LOBs but no linked version (so not in `/v1/payers`), found by one
 * `/v1/lobs` request for the id as typed and, when it has lower-case letters (`nopol`), in
 * upper case, the ids' usual spelling; the id as the catalogue spells it, else undefined.
 */
export async function confirmPayerByLobs(
  client: ApiClient,
  id: string,
): Promise<string | undefined> {
  const spellings = [...new Set([id, id.toUpperCase()])];
  const page = await client.lobs(client.build.lobs({ payer_ids: spellings, limit: 1 }));
  const found = page.data[0]?.payer_id;
  return found !== undefined && spellings.includes(found) ? found : undefined;
}
