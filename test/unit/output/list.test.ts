import { PassThrough } from "node:stream";
import { Chalk } from "chalk";
import { describe, expect, it } from "vitest";
import type { Envelope } from "../../../src/contract/index.js";
import { writeList } from "../../../src/output/list.js";

function capture() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

async function* pagesOf(...pages: Array<Envelope<{ id: string }>>) {
  yield* pages;
}

const page = (ids: string[], hasMore: boolean): Envelope<{ id: string }> => ({
  data: ids.map((id) => ({ id })),
  limit: 2,
  offset: 0,
  has_more: hasMore,
});

describe("writeList: notices go through the run's notice (TTY only, silenced by -q)", () => {
  it.each([
    {
      name: "more pages",
      pages: [page(["a", "b"], true)],
      notice: ["more after 2"],
      table: "a,b\n",
    },
    // An empty answer is the answer: on stdout for a table on a terminal, never a notice.
    { name: "empty", pages: [page([], false)], notice: [], table: "nothing\n" },
    { name: "one full page", pages: [page(["a"], false)], notice: [], table: "a\n" },
  ])("$name", async ({ pages, notice, table }) => {
    const stdout = capture();
    const stderr = capture();
    const notices: string[] = [];
    await writeList(pagesOf(...pages), {
      format: "table",
      all: false,
      io: {
        stdout: stdout.stream,
        stderr: stderr.stream,
        stdoutIsTTY: true,
        stderrIsTTY: true,
        columns: 80,
        color: false,
        chalk: new Chalk({ level: 0 }),
      },
      notice: (m) => notices.push(m),
      renderTable: (items) => items.map((i) => i.id).join(","),
      moreHint: (next) => `more after ${next}`,
      emptyMessage: "nothing",
    });
    expect(notices).toEqual(notice);
    expect(stdout.text()).toBe(table);
    expect(stderr.text()).toBe("");
  });
});
