export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each shell's script is checked in, under `completions/`. */
export const COMPLETION_FILES: Record<Shell, string> = {
  bash: "coverage.bash",
  zsh: "_coverage",
  fish: "coverage.fish",
};
