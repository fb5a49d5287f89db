import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  DownloadLink,
  LobPage,
  PayerPage,
  PolicyDetail,
  PolicyPage,
  PolicyUpdatePage,
} from "../../../src/contract/index.js";
import type { ApiRequest, QueryPairs } from "../../../src/api/request.js";
import { loadDataset } from "../../../src/dataset/load.js";
import { handleApiRequest, type EngineContext } from "../../../src/engine/router.js";
import {
  ACCEPTANCE_DATA,
  ACCEPTANCE_TODAY,
  CASES,
  expectAnswer,
} from "../../fixtures/acceptance/cases.js";

// The acceptance table in-process: the router alone must give the hand-computed answers (the
// e2e twin sends the same table over HTTP to `coverage serve`).
const dataset = await loadDataset(ACCEPTANCE_DATA);
const ctx: EngineContext = {
  db: dataset.db,
  today: ACCEPTANCE_TODAY,
  linkFor: (_v, _variant, file) => `file:///acceptance/${file}`,
};

/** A wire URL (`/path?query`) as the router's request, the way serve splits it. */
function toRequest(method: "GET" | "POST", url: string, json: unknown): ApiRequest {
  const q = url.indexOf("?");
  const query: QueryPairs = q < 0 ? [] : [...new URLSearchParams(url.slice(q + 1))];
  return { method, path: q < 0 ? url : url.slice(0, q), query, body: json };
}

/** The contract's schema of a 200 answer to `path` (the engine must answer in its shape). */
function schemaOf(path: string): z.ZodType {
  if (path === "/v1/policies/filter") return PolicyPage;
  if (path === "/v1/payers") return PayerPage;
  if (path === "/v1/lobs") return LobPage;
  if (path === "/v1/policies/updates") return PolicyUpdatePage;
  return path.endsWith("/download-url") ? DownloadLink : PolicyDetail;
}

describe("acceptance table through the engine's router", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const res = handleApiRequest(ctx, toRequest(c.method, c.url, c.json));
    expectAnswer(c, res.status, JSON.parse(JSON.stringify(res.body)));
    if (res.status === 200) {
      const body: unknown = JSON.parse(JSON.stringify(res.body));
      expect(schemaOf(c.url.split("?")[0] ?? "").safeParse(body).success).toBe(true);
    }
  });

  it("download links in-process point at the dataset's file", () => {
    const res = handleApiRequest(
      ctx,
      toRequest("GET", "/v1/policies/cms/lcd/L1/2026-06-01/download-url", undefined),
    );
    expectAnswer(
      {
        name: "",
        method: "GET",
        url: "",
        status: 200,
        body: {
          url: "file:///acceptance/files/l1.html",
          content_type: "text/html",
          filename: "L1.html",
        },
      },
      res.status,
      res.body,
    );
  });
});
