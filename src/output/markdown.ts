import { importEsm } from "../import-esm.js";
import { stripControls, type Io } from "./terminal.js";

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
    importEsm("marked"),
    importEsm("marked-terminal"),
  ]);
  const c = io.chalk;
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
    width: Math.max(40, io.columns - 2),
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
  return (marked.parse(clean, { async: false }) as string).trimEnd();
}
