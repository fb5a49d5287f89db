import { describe, expect, it } from "vitest";
import { ApiClient } from "../../../src/backend/client.js";
import type { Transport } from "../../../src/backend/transport.js";
import { UnexpectedError } from "../../../src/errors.js";

// Which answers ApiClient checks against the contract: a server's, always; the in-process
// engine's are its own (held to the schemas by the engine's tests), so not again per command.
const transport = (kind: Transport["kind"]): Transport => ({
  kind,
  baseUrl: "http://x",
  send: () => Promise.resolve({ status: 200, body: { data: "not a list" } }),
});
const req = { method: "POST" as const, path: "/v1/policies/filter", query: [], body: {} };

describe("ApiClient.send checks the shape of a server's answer only", () => {
  it("a malformed answer over HTTP is an UnexpectedError", async () => {
    await expect(new ApiClient(transport("http")).filter(req)).rejects.toBeInstanceOf(
      UnexpectedError,
    );
  });

  it("the in-process engine's answer is taken as given", async () => {
    await expect(new ApiClient(transport("local")).filter(req)).resolves.toEqual({
      data: "not a list",
    });
  });
});
