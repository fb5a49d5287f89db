import { describe, expect, it } from "vitest";
import { makeFallbackName, safeBaseName } from "../../../src/download/safe-name.js";

describe("safeBaseName", () => {
  it.each([
    { raw: "L33718.pdf", expected: "L33718.pdf" },
    { raw: "../../etc/passwd", expected: "passwd" },
    { raw: "..\\..\\windows\\system.ini", expected: "system.ini" },
    { raw: "/abs/path/file.md", expected: "file.md" },
    { raw: "..", expected: "download.pdf" },
    { raw: ".", expected: "download.pdf" },
    { raw: "", expected: "download.pdf" },
    { raw: "dir/", expected: "download.pdf" },
    { raw: ".hidden.pdf", expected: "hidden.pdf" },
    { raw: "...pdf", expected: "pdf" },
    { raw: "  spaced name.pdf  ", expected: "spaced name.pdf" },
    { raw: "trailing.pdf. . ", expected: "trailing.pdf" },
    { raw: "bell\u0007\u0000tab\tname.pdf", expected: "belltabname.pdf" },
    { raw: "\u001b[31mred\u001b[0m.pdf", expected: "red.pdf" },
    { raw: "\u001b]8;;http://x\u0007link.pdf", expected: "link.pdf" },
    { raw: "rtl\u202efdp.exe", expected: "rtlfdp.exe" },
    { raw: 'a<b>c:d"e|f?g*h.pdf', expected: "a_b_c_d_e_f_g_h.pdf" },
    { raw: "CON", expected: "_CON" },
    { raw: "nul.txt", expected: "_nul.txt" },
    { raw: "résumé 2026.pdf", expected: "résumé 2026.pdf" },
  ])("$raw -> $expected", ({ raw, expected }) => {
    expect(safeBaseName(raw, "application/pdf")).toBe(expected);
  });

  it("caps the length at 200 bytes and keeps the extension", () => {
    const name = safeBaseName(`${"é".repeat(300)}.pdf`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
    expect(name.endsWith(".pdf")).toBe(true);
  });

  it.each([
    { type: "application/pdf", name: "download.pdf" },
    { type: "text/html", name: "download.html" },
    { type: "text/markdown", name: "download.md" },
    { type: "application/octet-stream", name: "download" },
    { type: undefined, name: "download" },
  ])("fallback for $type is $name", ({ type, name }) => {
    expect(makeFallbackName(type)).toBe(name);
  });
});
