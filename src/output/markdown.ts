import { wrapText } from "./table.js";
import { stripControls, type Io } from "./terminal.js";
import { measureColumns } from "./text-width.js";

// SGR colour codes: the only escapes in rendered text (the data's own were stripped).
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;
// A line's indent and list marker (`  *  `, `  1. `), colour codes allowed in between.
// eslint-disable-next-line no-control-regex
const LEAD = /^(?:\u001b\[[0-9;]*m|[ \t])*(?:(?:[*\u2022-]|\d+\.)(?:\u001b\[[0-9;]*m)*[ \t]+)?/;
// Box-drawing characters: a table marked-terminal already fitted, left as it is.
const BOX = /[\u2500\u2502\u250c\u2510\u2514\u2518\u251c\u2524\u252c\u2534\u253c]/;

/**
 * Wraps rendered markdown to `width` columns at word boundaries; a list item's continuation lines
 * hang under its text. marked-terminal reflows paragraphs but leaves list items at any length.
 */
export function wrapRendered(text: string, width: number): string {
  return text
    .split("\n")
    .flatMap((line) => {
      if (measureColumns(line) <= width || BOX.test(line)) return [line];
      const lead = LEAD.exec(line)?.[0] ?? "";
      const indent = measureColumns(lead.replace(SGR, ""));
      if (indent >= width / 2) return wrapText(line, width).split("\n");
      const [first = "", ...rest] = wrapText(line.slice(lead.length), width - indent).split("\n");
      return [lead + first, ...rest.map((l) => " ".repeat(indent) + l)];
    })
    .join("\n");
}

/**
 * Markdown for the terminal. On a TTY it is rendered with marked-terminal, styled through the
 * run's chalk (so `--no-color`/NO_COLOR hold); elsewhere the markdown itself is the plain text.
 * Control sequences from the data are stripped first: the only escapes are our own.
 */
export async function renderMarkdown(
  text: string,
  io: Pick<Io, "stdoutIsTTY" | "columns" | "chalk">,
): Promise<string> {
  const clean = stripControls(text);
  if (!io.stdoutIsTTY) return clean.trimEnd();
  const [{ Marked }, { markedTerminal }] = await Promise.all([
    import("marked"),
    import("marked-terminal"),
  ]);
  const c = io.chalk;
  const width = Math.max(20, io.columns - 2);
  const renderer = markedTerminal({
    code: c.yellow,
    blockquote: c.gray.italic,
    html: c.gray,
    heading: c.green.bold,
    firstHeading: c.magenta.underline.bold,
    hr: c.reset,
    listitem: c.reset,
    table: c.reset,
    paragraph: c.reset,
    strong: c.bold,
    em: c.italic,
    codespan: c.yellow,
    del: c.dim.gray.strikethrough,
    link: c.blue,
    href: c.blue.underline,
    emoji: false,
    width,
    reflowText: true,
    tab: 2,
  });
  // The typings describe the old Renderer object; at run time it is a marked extension.
  const marked = new Marked(
    renderer as unknown as Parameters<InstanceType<typeof Marked>["use"]>[0],
  );
  // marked-terminal prints a tight list item's text raw (`**bold**` stays); render its inline
  // tokens instead, and fall back to marked-terminal (`false`) for plain text.
  marked.use({
    renderer: {
      text(token) {
        return "tokens" in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
      },
      // Always `text (url)`: marked-terminal would emit a hidden OSC 8 hyperlink on terminals
      // that support them, where the data's link text could disguise where it points.
      link(token) {
        const text = this.parser.parseInline(token.tokens);
        const href = c.blue.underline(token.href);
        return text && text !== token.href ? `${c.blue(text)} (${href})` : href;
      },
    },
  });
  return wrapRendered((marked.parse(clean, { async: false }) as string).trimEnd(), width);
}
