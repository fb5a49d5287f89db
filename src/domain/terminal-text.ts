// CSI / OSC / other escape sequences, then any C0/C1 control other than tab and newline.
const ESCAPES =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidirectional embeddings, overrides and isolates: they reorder what the terminal shows, so a
// policy id on screen could differ from the one to type.
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

// The same, carriage returns kept (a CSV cell's line ends are data).
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_CR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * Strips terminal control sequences from text that came from the API or a dataset (tabs and
 * line feeds kept; carriage returns too with `keepCr`).
 */
export function stripControls(text: string, keepCr = false): string {
  return text
    .replace(ESCAPES, "")
    .replace(keepCr ? CONTROLS_BUT_CR : CONTROLS, "")
    .replace(BIDI, "");
}

/**
 * Text wrapped at spaces to `width` columns (a word longer than that stays whole on its own
 * line: ids are never broken). Lines already shorter are left as they are.
 */
export function wrapWords(text: string, width: number): string {
  if (width < 20) return text;
  return text
    .split("\n")
    .map((line) => {
      if (line.length <= width) return line;
      const out: string[] = [];
      let current = "";
      for (const word of line.split(" ")) {
        if (current && current.length + 1 + word.length > width) {
          out.push(current);
          current = word;
        } else current = current ? `${current} ${word}` : word;
      }
      out.push(current);
      return out.join("\n");
    })
    .join("\n");
}
