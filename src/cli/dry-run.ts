import { requestUrl, type ApiRequest } from "../api/request.js";

/** The `--dry-run` object: method, full URL, headers (key masked) and the body for POST. */
export function describeRequest(baseUrl: string, req: ApiRequest): Record<string, unknown> {
  const headers: Record<string, string> = { "x-api-key": "***" };
  if (req.body !== undefined) headers["content-type"] = "application/json";
  return {
    method: req.method,
    url: requestUrl(baseUrl, req),
    headers,
    ...(req.body !== undefined ? { body: req.body } : {}),
  };
}
