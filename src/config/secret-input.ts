import { InterruptedError, UsageError } from "../errors.js";

const MAX_BYTES = 64 * 1024;
// Bracketed-paste markers some terminals wrap pasted text in.
// eslint-disable-next-line no-control-regex
const PASTE_MARKERS = /\u001b\[20[01]~/g;

async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_BYTES)
      throw new UsageError(
        "stdin holds more than 64 KB: that is not an API key",
        "Pipe the key alone.",
      );
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads a line from a TTY with echo off; Ctrl-C cancels (exit 130), Backspace edits. */
function promptHidden(
  stdin: NodeJS.ReadStream,
  stderr: NodeJS.WritableStream,
  prompt: string,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (err: Error | undefined) => {
      stdin.off("data", onData);
      signal.removeEventListener("abort", onAbort);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
      if (err) reject(err);
      else resolve(value);
    };
    const onAbort = () => finish(new InterruptedError("cancelled; nothing was saved"));
    const onData = (chunk: string) => {
      for (const ch of chunk.replace(PASTE_MARKERS, "")) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return finish(undefined);
        if (ch === "\u0003") return onAbort();
        if (ch === "\u007f" || ch === "\b") value = [...value].slice(0, -1).join("");
        else if (ch >= " ") value += ch;
      }
    };
    stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    signal.addEventListener("abort", onAbort, { once: true });
    stdin.resume();
  });
}

/**
 * A secret from stdin when it is piped, else from a hidden prompt on the terminal: never from
 * argv, where it would land in shell history and process lists.
 */
export async function readSecret(options: {
  stdin: NodeJS.ReadableStream;
  stderr: NodeJS.WritableStream;
  prompt: string;
  signal: AbortSignal;
}): Promise<string> {
  const { stdin } = options;
  if ((stdin as NodeJS.ReadStream).isTTY)
    return promptHidden(stdin as NodeJS.ReadStream, options.stderr, options.prompt, options.signal);
  return readAll(stdin);
}
