import { TEXT_LIMIT } from "./limits.js";

/** A note line (a warning that echoes the input, say) is cut past this many bytes. */
export const NOTE_LIMIT = 2048;
/** The notes above a result's body take at most this many bytes together. */
export const HEAD_LIMIT = 16 * 1024;

/** `text` cut to at most `max` bytes of UTF-8 (the mark included), never inside a character. */
export function cutText(text: string, max: number, mark = " [... cut]"): string {
  if (Buffer.byteLength(text) <= max) return text;
  const room = Math.max(0, max - Buffer.byteLength(mark));
  // toString drops a character cut in half as U+FFFD; the slice then drops that.
  let kept = Buffer.from(text).subarray(0, room).toString("utf8");
  if (kept.endsWith("\uFFFD")) kept = kept.slice(0, -1);
  while (Buffer.byteLength(kept) > room) kept = kept.slice(0, -1);
  return kept + mark;
}

/** The notes of a result, each cut at NOTE_LIMIT and all of them within HEAD_LIMIT. */
export function boundNotes(lines: readonly string[]): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const cut = cutText(line, NOTE_LIMIT);
    const size = Buffer.byteLength(cut) + 1;
    if (used + size > HEAD_LIMIT) {
      kept.push(`[... ${lines.length - i} more note line(s) left out]`);
      break;
    }
    used += size;
    kept.push(cut);
  }
  return kept;
}

interface TextContent {
  type: string;
  text?: unknown;
}

/**
 * The last guard on the way out: the text items of a tool result (the SDK's own errors too)
 * hold at most TEXT_LIMIT bytes together. Returns the result itself when it fits.
 */
export function boundResultText<R extends object>(result: R): R {
  const items = (result as { content?: unknown }).content;
  if (!Array.isArray(items)) return result;
  let total = 0;
  for (const item of items as TextContent[])
    if (typeof item.text === "string") total += Buffer.byteLength(item.text);
  if (total <= TEXT_LIMIT) return result;
  let room = TEXT_LIMIT;
  const content = (items as TextContent[]).map((item) => {
    if (typeof item.text !== "string") return item;
    const mark = "\n[... text cut at 64 KB; the structured answer has it all]";
    const text = room > 2 * mark.length ? cutText(item.text, room, mark) : "";
    room = Math.max(0, room - Buffer.byteLength(text));
    return { ...item, text };
  });
  return { ...result, content };
}
