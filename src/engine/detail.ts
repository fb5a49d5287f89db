import type { DetailApplicability, PolicyDetail } from "../contract/index.js";
import type { Db, PolicyRecord } from "./db.js";
import { buildApplicability, buildCodeGroups, toPolicyItem } from "./shape.js";

/** Rule Shapes (detail): applicability from every link ever, `state` key left out when nationwide. */
export function buildPolicyDetail(db: Db, version: PolicyRecord): PolicyDetail {
  const applicability: DetailApplicability[] = buildApplicability(version.links).map(
    ({ state, ...rest }) => (state === null ? rest : { ...rest, state }),
  );
  const { score: _score, ...item } = toPolicyItem(version, {
    score: null,
    applicability: null,
    code_groups: null,
  });
  return {
    ...item,
    applicability,
    code_groups: buildCodeGroups(db, version),
    criteria_text: version.criteria_text,
  };
}
