import { describe, expect, it } from "vitest";
import { ApiClient } from "../../../src/backend/client.js";
import type { Transport } from "../../../src/backend/transport.js";
import { UnexpectedError } from "../../../src/errors.js";

// Both backends' answers are checked against the contract's schemas (the architecture: one
// contract, two transports), the in-process engine's as a server's.
const transport = (kind: Transport["kind"]): Transport => ({
  kind,
  baseUrl: "http://x",
  send: () => Promise.resolve({ status: 200, body: { data: "not a list" } }),
});
const req = { method: "POST" as const, path: "/v1/policies/filter", query: [], body: {} };

describe("ApiClient.send checks the shape of every answer", () => {
  it.each(["http", "local"] as const)(
    "a malformed answer from %s is an UnexpectedError",
    async (kind) => {
      await expect(new ApiClient(transport(kind)).filter(req)).rejects.toBeInstanceOf(
        UnexpectedError,
      );
    },
  );
});
