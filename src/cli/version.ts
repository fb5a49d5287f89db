/** The CLI's version; its own module so `--version` can answer without loading commander. */
export const VERSION = "0.1.0";
