import type { DatabaseSync } from "node:sqlite";
import type { ApiRequest, ApiResponse } from "../api/request.js";
import type { Policy } from "../contract/index.js";

/** How requests reach an answer: the in-process engine or the HTTP API. */
export interface Transport {
  readonly kind: "local" | "http";
  /** Base URL the requests are relative to (`http://local` for the engine). */
  readonly baseUrl: string;
  send(req: ApiRequest): Promise<ApiResponse>;
  close?(): Promise<void>;
  /**
   * The local engine only: the list items of a key's versions, read from its index by series.
   * The same items the probes over `POST /v1/policies/filter` find (views/find-versions.ts),
   * without reading ~10 pages of 100 versions to find them.
   */
  versionsOf?(key: string): Promise<Policy[]>;
  /**
   * The local engine over a snapshot only: its open database (read-only), for what a pull
   * records beside the catalogue and the API does not serve (CMS's revision records), so
   * those are read without opening the file a second time.
   */
  readonly snapshot?: DatabaseSync;
}
