// The verdict names of `coverage check`, apart from the rules: `--help` and completions need
// them without loading the rules.

/** A policy's verdicts, first to last in precedence: a group gets the first one of its policies. */
export const POLICY_VERDICTS = [
  "procedure not covered",
  "diagnosis not covered",
  "supported",
  "diagnosis not listed",
  "no diagnosis limits",
  "mentioned only",
] as const;
export type PolicyVerdict = (typeof POLICY_VERDICTS)[number];

/** Every verdict a row can have: a policy's, or `not addressed` when no policy lists the code. */
export const CHECK_VERDICTS = [...POLICY_VERDICTS, "not addressed"] as const;
export type CheckVerdict = (typeof CHECK_VERDICTS)[number];
