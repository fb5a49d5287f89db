// Help text written by hand (a command's notes after its options) is wrapped at ~95 columns in
// the source; commander prints it as is. This fits it to the terminal (80 off a terminal), so
// that a terminal does not break words.

const isExample = (line: string) => /^\s*\$ /.test(line);
const indentOf = (line: string) => /^\s*/.exec(line)?.[0] ?? "";

/** Words after `indent`, as lines of at most `width` columns (a longer word stays whole). */
function fill(words: string[], indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, indent + line];
}

/** A line too wide: an aligned last column wraps under its own start, else under the indent. */
function breakLine(line: string, indent: string, width: number): string[] {
  const aligned = /^(.*\S {2,})(\S.*)$/.exec(line);
  const lead = aligned?.[1] ?? "";
  if (!aligned || lead.length > width - 20) return fill(line.trim().split(/ +/), indent, width);
  const hang = " ".repeat(lead.length);
  const lines = fill((aligned[2] ?? "").split(/ +/), hang, width);
  return [lead + (lines[0] ?? "").slice(hang.length), ...lines.slice(1)];
}

/**
 * Help text fitted to `width`: a paragraph (lines of one indent, no aligned columns) with a line
 * too wide is refilled; any other line too wide is broken at spaces under its own indent.
 * Example commands (`$ coverage …`) stay whole, to be copied.
 */
export function wrapHelp(text: string, width: number): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const indent = indentOf(lines[i] ?? "");
    let end = i + 1;
    const prose = (l: string) =>
      l.trim() !== "" && !isExample(l) && indentOf(l) === indent && !/\S {2,}\S/.test(l.trim());
    if (prose(lines[i] ?? "")) while (end < lines.length && prose(lines[end] ?? "")) end++;
    const block = lines.slice(i, end);
    if (block.every((l) => l.length <= width) || isExample(block[0] ?? "")) out.push(...block);
    else if (prose(block[0] ?? ""))
      out.push(...fill(block.join(" ").trim().split(/\s+/), indent, width));
    else out.push(...breakLine(block[0] ?? "", indent, width));
    i = end;
  }
  return out.join("\n");
}
