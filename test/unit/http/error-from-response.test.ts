import { describe, expect, it } from "vitest";
import { errorFromResponse } from "../../../src/errors.js";

describe("errorFromResponse: one status, one exit code, advice that fits the request", () => {
  it.each([
    {
      status: 404,
      body: { detail: "Policy not found" },
      what: "policy",
      exit: 4,
      says: "Check the policy id",
    },
    { status: 404, body: null, what: "download link", exit: 4, says: "Check the policy id" },
    {
      status: 404,
      body: "<html>",
      what: "payers",
      exit: 4,
      says: "check that --api-url is the API's base URL",
    },
    {
      status: 404,
      body: null,
      what: "search",
      exit: 4,
      says: "check that --api-url is the API's base URL",
    },
    {
      status: 422,
      body: { detail: [{ loc: ["body", "limit"], msg: "too big", type: "x" }] },
      what: "search",
      exit: 2,
      says: "Fix the fields named above.",
    },
    { status: 422, body: null, what: "search", exit: 2, says: "did not name the fields" },
    { status: 400, body: null, what: "payers", exit: 1, says: "--verbose" },
    { status: 413, body: { detail: "too large" }, what: "search", exit: 1, says: "--verbose" },
    { status: 502, body: null, what: "lobs", exit: 1, says: "try again shortly" },
  ])("$status for $what -> exit $exit", ({ status, body, what, exit, says }) => {
    const err = errorFromResponse(status, body, what);
    expect(err.exitCode).toBe(exit);
    expect(err.suggestion).toContain(says);
  });

  it("a 403 (the CLI always sends the key) says the key did not arrive", () => {
    const err = errorFromResponse(403, { detail: "Not authenticated" }, "payers");
    expect(err.exitCode).toBe(3);
    expect(err.message).toBe("the API did not get the key (403: Not authenticated)");
    expect(err.suggestion).toContain("dropping the x-api-key header");
  });

  it("a 422 body that is not the spec's names no fields and prints no `null`", () => {
    const err = errorFromResponse(422, null, "search");
    expect(err.details).toEqual([]);
  });
});
