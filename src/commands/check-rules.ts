import type { CommandContext } from "../cli/context.js";
import type { EditScope } from "../views/claim-edits.js";
import type { ClaimRule } from "../views/claim-rules.js";

/**
 * The rules of `check`: the coverage verdicts, then (when the data is a snapshot that holds
 * Medicare's rules) NCCI PTP, MUE, add-on codes and prior authorization for the scope's setting.
 * A snapshot without PTP or MUE tables of that setting is said on stderr (no such rows can
 * come). `close` releases the snapshot.
 */
export async function openCheckRules(
  ctx: CommandContext,
  scope: EditScope,
): Promise<{ list: readonly ClaimRule[]; close(): void }> {
  const { CLAIM_RULES } = await import("../views/claim-rules.js");
  const backend = ctx.settings.backend;
  // The bundled data and the API hold no rules: the snapshot's module is not even loaded.
  const source =
    backend.kind === "local" && backend.data !== undefined
      ? await (await import("../snapshot/medicare-store.js")).openMedicareRules(backend.data)
      : undefined;
  if (!source) return { list: CLAIM_RULES, close: () => undefined };
  const tables = source.releases().filter((r) => r.kind === "ptp" || r.kind === "mue");
  const inScope = tables.filter((r) => r.setting === scope.setting && r.program === scope.program);
  if (tables.length && !inScope.length) {
    const held = [...new Set(tables.map((r) => `${r.program} ${r.setting}`))].join(", ");
    ctx.warn(
      `the snapshot holds no ${scope.program === "medicare" ? "Medicare" : "Medicaid"} ${scope.setting} PTP or MUE table (it holds ${held}): no bundled or MUE rows can come.`,
    );
  }
  const { medicareRules } = await import("../views/claim-edits.js");
  return { list: [...CLAIM_RULES, ...medicareRules(source, scope)], close: () => source.close() };
}
