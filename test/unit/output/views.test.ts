import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { PolicyDetail, PolicyUpdate } from "../../../src/contract/index.js";
import { errorFromHealth } from "../../../src/errors.js";
import { pickCsvColumns } from "../../../src/output/list.js";
import { renderMarkdown } from "../../../src/output/markdown.js";
import { describePeriod, renderPolicyView } from "../../../src/output/policy-view.js";
import { fitWidths } from "../../../src/output/table.js";
import { groupUpdates } from "../../../src/output/updates-view.js";

const ESC = "\u001b";
const tty = { columns: 80, chalk: new Chalk({ level: 1 }), stdoutIsTTY: true };
const ttyNoColour = { columns: 80, chalk: new Chalk({ level: 0 }), stdoutIsTTY: true };
const pipe = { columns: 80, chalk: new Chalk({ level: 0 }), stdoutIsTTY: false };

const update = (date: string, payer: string, id: string): PolicyUpdate => ({
  policy_id: id,
  policy_number: id,
  title: id,
  effective_from_date: date,
  change_type: "new",
  payer_id: payer,
  payer_display_name: payer,
  file_url: "",
});

describe("groupUpdates", () => {
  it.each([
    { name: "empty", items: [], rows: [] },
    {
      name: "one date, two payers",
      items: [
        update("2026-05-02", "A", "x"),
        update("2026-05-02", "A", "y"),
        update("2026-05-02", "B", "x"),
      ],
      rows: ["2026-05-02 A x", "- - y", "- B x"],
    },
    {
      name: "a blank row between dates; groups keep their first appearance",
      items: [
        update("2026-05-02", "A", "x"),
        update("2026-05-01", "B", "y"),
        update("2026-05-02", "A", "z"),
      ],
      rows: ["2026-05-02 A x", "- - z", "", "2026-05-01 B y"],
    },
  ])("$name", ({ items, rows }) => {
    expect(
      groupUpdates(items).map((r) =>
        r.update
          ? `${r.showDate ? r.update.effective_from_date : "-"} ${r.showPayer ? r.update.payer_id : "-"} ${r.update.policy_id}`
          : "",
      ),
    ).toEqual(rows);
  });
});

describe("renderMarkdown", () => {
  const md = "## Criteria\n\n- **plan** of care\n- evil \u001b]0;title\u0007text\n";
  it("not a TTY: the markdown itself, control sequences removed", async () => {
    expect(await renderMarkdown(md, pipe)).toBe("## Criteria\n\n- **plan** of care\n- evil text");
  });
  it("a TTY: rendered for the terminal with our colours", async () => {
    const out = await renderMarkdown(md, tty);
    expect(out).toContain(ESC + "[");
    expect(out).not.toContain("**plan**");
    expect(out).not.toContain("]0;title");
    expect(out).toContain("plan");
  });
  it("bidi overrides from the data are removed", async () => {
    expect(await renderMarkdown("id a\u202eb\u2066c\u2069", pipe)).toBe("id abc");
  });

  it("a TTY without colour: rendered, no escape sequences at all", async () => {
    const out = await renderMarkdown(md, ttyNoColour);
    expect(out).not.toContain(ESC);
    expect(out).not.toContain("**plan**");
    expect(out).toMatch(/Criteria/);
  });
});

describe("renderPolicyView", () => {
  const detail: PolicyDetail = {
    policy_id: "s/p/2026-01-01",
    policy_number: "P-1",
    title: `Title ${ESC}[2Jcleared`,
    effective_from_date: "2026-01-01",
    effective_to_date: null,
    file_url: "https://example.org/p.pdf",
    file_type: "pdf",
    listing_url: "https://example.org/",
    summary: null,
    applicability: [],
    code_groups: [],
    criteria_text: "**bold**",
  };
  it("strips sequences from the data even on a colour TTY; only our styling remains", async () => {
    const out = await renderPolicyView(detail, tty, "2026-06-01");
    expect(out).not.toContain(`${ESC}[2J`);
    expect(out).toContain("Title cleared");
    expect(out).toContain("No applicability recorded.");
    expect(out).toContain("No codes recorded.");
  });
  it.each([
    { today: "2025-12-31", status: "upcoming starts 2026-01-01" },
    { today: "2026-01-01", status: "active from 2026-01-01" },
  ])("status on $today is $status", async ({ today, status }) => {
    expect(await renderPolicyView(detail, pipe, today)).toMatch(
      new RegExp(`^Status\\s+${status}$`, "m"),
    );
  });
  it.each([
    { from: "2024-01-01", to: null, text: "from 2024-01-01" },
    { from: "2024-01-01", to: "2025-01-01", text: "2024-01-01 until 2025-01-01" },
  ])("period $from..$to", ({ from, to, text }) => {
    expect(describePeriod(from, to)).toBe(text);
  });
});

describe("fitWidths", () => {
  it.each([
    { natural: [10, 20, 30], flex: [false, true, true], total: 100, expected: [10, 20, 30] },
    // 4 too wide (60 + 2 gaps of 2 in 60): the widest flexible column gives up the room.
    { natural: [10, 20, 30], flex: [false, true, true], total: 60, expected: [10, 20, 26] },
    // Both flexible columns shrink once they are equally wide.
    { natural: [10, 20, 30], flex: [false, true, true], total: 50, expected: [10, 18, 18] },
    // The minimum first (10 + 10 + 10 + gaps = 34)...
    { natural: [10, 20, 30], flex: [false, true, true], total: 34, expected: [10, 10, 10] },
    // ...then, on a narrower terminal, down to 4; fixed columns never shrink.
    { natural: [10, 20, 30], flex: [false, true, true], total: 30, expected: [10, 8, 8] },
    { natural: [10, 20, 30], flex: [false, true, true], total: 20, expected: [10, 4, 4] },
    { natural: [40, 5], flex: [false, true], total: 20, expected: [40, 4] },
  ])("$natural in $total", ({ natural, flex, total, expected }) => {
    expect(fitWidths(natural, flex, [10, 10, 10], total)).toEqual(expected);
  });
});

describe("small pieces", () => {
  it.each([
    { h: 200, r: 200, exit: undefined, says: "" },
    { h: 200, r: 503, exit: 1, says: "the service is not healthy: /ready answered 503" },
    { h: 500, r: 502, exit: 1, says: "/health answered 500, /ready answered 502" },
    { h: 200, r: 401, exit: 3, says: "refused the key" },
    { h: 403, r: 200, exit: 3, says: "" },
    { h: 429, r: 503, exit: 5, says: "" },
  ])("errorFromHealth health=$h ready=$r -> exit $exit", ({ h, r, exit, says }) => {
    const report = { health: { status: h, body: null }, ready: { status: r, body: null } };
    const err = errorFromHealth(report, true);
    expect(err?.exitCode).toBe(exit);
    if (err) expect(err.message).toContain(says);
  });

  it.each([
    { rows: [{ a: 1 }], documented: undefined, expected: undefined },
    { rows: [{ a: 1 }], documented: ["a", "b"], expected: ["a", "b"] },
    {
      rows: [{ b: 1, extra: 2 }, { more: 3 }],
      documented: ["a", "b"],
      expected: ["a", "b", "extra", "more"],
    },
  ])("csv columns of $rows with $documented", ({ rows, documented, expected }) => {
    expect(pickCsvColumns(rows, documented)).toEqual(expected);
  });
});
