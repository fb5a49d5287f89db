import type { CommandContext } from "../cli/context.js";
import type { CodeReference } from "../contract/index.js";
import type { CodeDossier } from "../views/code-dossier.js";

/** The flags of `code` that ask for Medicare's edits and fees. */
export interface DossierFlags {
  date?: string;
  edits?: boolean;
  locality?: string;
  state?: string[];
}

/**
 * The Medicare section of `coverage code` when the data is a snapshot holding Medicare's rules
 * (`data import edits|fees|pa`); undefined otherwise, said on stderr when a flag asked for it.
 */
export async function loadCodeDossier(
  ctx: CommandContext,
  ref: CodeReference,
  flags: DossierFlags,
  day: string,
): Promise<CodeDossier | undefined> {
  if (ref.code_system !== "CPT" && ref.code_system !== "HCPCS") return undefined;
  const asked = flags.edits === true || flags.locality !== undefined;
  const backend = ctx.settings.backend;
  if (backend.kind !== "local") {
    if (asked)
      ctx.warn(
        "Medicare's edits and fees are read from a snapshot (--data SNAPSHOT); the API does not serve them.",
      );
    return undefined;
  }
  const { openMedicareRules } = await import("../snapshot/medicare-store.js");
  const rules = await openMedicareRules(backend.data);
  if (!rules) {
    if (asked)
      ctx.warn(
        "this data holds no Medicare edits or fees: import them with `coverage data import edits|fees|pa ... --into SNAPSHOT` and give --data SNAPSHOT.",
      );
    return undefined;
  }
  try {
    const { buildCodeDossier } = await import("../views/code-dossier.js");
    const state = flags.state?.flatMap((s) => s.split(",")).map((s) => s.trim().toUpperCase())[0];
    return buildCodeDossier(rules, {
      code: ref.codes[0] ?? "",
      date: day,
      state,
      edits: flags.edits,
      locality: flags.locality,
    });
  } finally {
    rules.close();
  }
}
