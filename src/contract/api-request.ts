// One API call and its answer, transport-neutral: the HTTP client sends these and the engine's
// router takes them, so they live in the leaf both may import.

/** Query parameters in wire order; array values are repeated keys (`?lobs=a&lobs=b`). */
export type QueryPairs = Array<[string, string]>;

export type HttpMethod = "GET" | "POST";

/** One API call, transport-neutral: what the HTTP client sends and the engine's router takes. */
export interface ApiRequest {
  method: HttpMethod;
  /** Percent-encoded path, from the API root (`/v1/...`, `/health`). */
  path: string;
  query: QueryPairs;
  body?: unknown;
  /**
   * The body as written, where it differs from `body`: number literals too large for a double
   * kept as NumberLiteral. A 422 quotes this one; validation reads `body`.
   */
  bodyAsWritten?: unknown;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
