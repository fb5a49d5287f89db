import type { ApiRequest, ApiResponse } from "../api/request.js";

/** How requests reach an answer: the in-process engine or the HTTP API. */
export interface Transport {
  readonly kind: "local" | "http";
  /** Base URL the requests are relative to (`http://local` for the engine). */
  readonly baseUrl: string;
  send(req: ApiRequest): Promise<ApiResponse>;
  close?(): Promise<void>;
}
