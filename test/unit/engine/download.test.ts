import { describe, expect, it } from "vitest";
import { buildDownloadUrlRequest } from "../../../src/api/endpoints.js";
import type { DownloadVariant, FileType } from "../../../src/contract/index.js";
import {
  buildDownloadLink,
  makeDownloadFilename,
  findStoredFile,
} from "../../../src/engine/download.js";
import { handleApiRequest, type EngineContext } from "../../../src/engine/router.js";
import { buildDb, policy } from "../../helpers/build-db.js";

describe("download links (rules: Download links)", () => {
  it.each<{ type: FileType; variant: DownloadVariant; content_type: string; filename: string }>([
    { type: "pdf", variant: "display", content_type: "application/pdf", filename: "L33718.pdf" },
    { type: "html", variant: "display", content_type: "text/html", filename: "L33718.html" },
    { type: "md", variant: "display", content_type: "text/markdown", filename: "L33718.md" },
    { type: "pdf", variant: "text", content_type: "text/markdown", filename: "L33718.md" },
    { type: "html", variant: "text", content_type: "text/markdown", filename: "L33718.md" },
  ])("$type file, $variant variant: $content_type, $filename", (c) => {
    const db = buildDb({
      policies: [
        policy("cms-lcd/L33718/2024-01-01", { file_type: c.type, policy_number: "L33718" }),
      ],
    });
    const v = db.byId.get("cms-lcd/L33718/2024-01-01")!;
    expect(buildDownloadLink(v, c.variant, "file:///f")).toStrictEqual({
      url: "file:///f",
      content_type: c.content_type,
      filename: c.filename,
    });
  });

  it.each([
    { number: "L33718", expected: "L33718.pdf" },
    { number: "SL 7/1", expected: "SL_7_1.pdf" },
    { number: "../etc/passwd", expected: ".._etc_passwd.pdf" },
    { number: "CPB 0004 (é)", expected: "CPB_0004____.pdf" },
    { number: "A\u{1F600}B", expected: "A_B.pdf" },
    { number: "a.b-c_d", expected: "a.b-c_d.pdf" },
  ])("filename of policy number $number is $expected", ({ number, expected }) => {
    expect(makeDownloadFilename(number, "pdf")).toBe(expected);
  });

  it.each<{ files: Record<string, string>; variant: DownloadVariant; expected?: string }>([
    { files: { display: "d.pdf", text: "t.md" }, variant: "display", expected: "d.pdf" },
    { files: { display: "d.pdf", text: "t.md" }, variant: "text", expected: "t.md" },
    { files: { display: "d.pdf" }, variant: "text" },
    { files: { text: "t.md" }, variant: "display" },
    { files: {}, variant: "display" },
  ])("stored file of $files for $variant", ({ files, variant, expected }) => {
    const db = buildDb({ policies: [policy("s/p/2024-01-01", { files })] });
    expect(findStoredFile(db.byId.get("s/p/2024-01-01")!, variant)).toBe(expected);
  });
});

describe("GET /v1/policies/{id}/download-url through the router", () => {
  const db = buildDb({
    policies: [
      policy("s/both/2024-01-01", { files: { display: "b.pdf", text: "b.md" } }),
      policy("s/display/2024-01-01", { file_type: "html", files: { display: "d.html" } }),
      policy("s/none/2024-01-01"),
    ],
  });
  const ctx: EngineContext = {
    db,
    today: "2026-06-01",
    linkFor: (v, variant, file) => `file:///data/${file}#${v.policy_id}:${variant}`,
  };
  it.each<{ id: string; variant: DownloadVariant; status: number; body: unknown }>([
    {
      id: "s/both/2024-01-01",
      variant: "display",
      status: 200,
      body: {
        url: "file:///data/b.pdf#s/both/2024-01-01:display",
        content_type: "application/pdf",
        filename: "both.pdf",
      },
    },
    {
      id: "s/both/2024-01-01",
      variant: "text",
      status: 200,
      body: {
        url: "file:///data/b.md#s/both/2024-01-01:text",
        content_type: "text/markdown",
        filename: "both.md",
      },
    },
    {
      id: "s/display/2024-01-01",
      variant: "text",
      status: 404,
      body: { detail: "No file stored for this policy" },
    },
    {
      id: "s/none/2024-01-01",
      variant: "display",
      status: 404,
      body: { detail: "No file stored for this policy" },
    },
    {
      id: "s/missing/2024-01-01",
      variant: "display",
      status: 404,
      body: { detail: "Policy not found" },
    },
  ])("$id $variant -> $status", ({ id, variant, status, body }) => {
    const res = handleApiRequest(ctx, buildDownloadUrlRequest(id, variant));
    expect(res).toMatchObject({ status, body });
  });

  it("a stored file that is not on disk: 404 no file, as if none were stored", () => {
    const gone: EngineContext = { ...ctx, hasFile: (file) => file !== "b.pdf" };
    expect(handleApiRequest(gone, buildDownloadUrlRequest("s/both/2024-01-01", "display"))).toEqual(
      {
        status: 404,
        body: { detail: "No file stored for this policy" },
      },
    );
    expect(
      handleApiRequest(gone, buildDownloadUrlRequest("s/both/2024-01-01", "text")).status,
    ).toBe(200);
  });

  it("display is the default variant", () => {
    const res = handleApiRequest(ctx, {
      method: "GET",
      path: "/v1/policies/s/both/2024-01-01/download-url",
      query: [],
    });
    expect((res.body as { filename: string }).filename).toBe("both.pdf");
  });

  it("an unknown variant is a 422 on query.variant", () => {
    const res = handleApiRequest(ctx, {
      method: "GET",
      path: "/v1/policies/s/both/2024-01-01/download-url",
      query: [["variant", "raw"]],
    });
    expect(res.status).toBe(422);
    expect((res.body as { detail: Array<{ loc: unknown }> }).detail[0]?.loc).toEqual([
      "query",
      "variant",
    ]);
  });
});
