import * as z from "zod";
import {
  PayerPage,
  LobPage,
  PolicyDetail,
  PolicyPage,
  PolicyUpdatePage,
} from "../contract/index.js";

// The views' JSON (src/views/) has no schema of its own: these describe its top level, loosely,
// so that an assistant knows what to read and a new field of a view never fails a call.
const Verdict = z.enum(["covers", "does not cover", "mentions", "mixed", "none"]);

const codeReport = z.looseObject({
  code_system: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  effective_on: z.string().nullable(),
  groups: z
    .array(
      z.looseObject({
        relationship: z.string(),
        policies: z.array(z.looseObject({ policy_id: z.string(), title: z.string() })),
      }),
    )
    .describe(
      "policies by relationship (COVERS, DOES_NOT_COVER, REFERENCES), each with payers and scope",
    ),
});

const matrix = z.looseObject({
  code_system: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  effective_on: z.string().nullable(),
  states: z.array(z.string().nullable()).describe("columns; null is the nationwide column"),
  rows: z.array(z.looseObject({ payer_id: z.string(), payer_name: z.string(), lob: z.string() })),
  cells: z
    .array(
      z.looseObject({
        payer_id: z.string(),
        lob: z.string(),
        state: z.string().nullable(),
        verdict: Verdict,
        policy_ids: z.array(z.string()),
      }),
    )
    .describe("every cell, row by row, in column order"),
  variation: z.looseObject({}).describe("where the verdict differs, by state and by payer"),
});

const versions = z.looseObject({
  key: z.string(),
  versions: z
    .array(
      z.looseObject({
        policy_id: z.string(),
        effective_from_date: z.string(),
        effective_to_date: z.string().nullable(),
        changes: z.looseObject({}).nullable().describe("what changed from the previous version"),
      }),
    )
    .describe("oldest first"),
});

const diff = z.looseObject({
  old_id: z.string(),
  new_id: z.string(),
  kinds: z.array(z.string()),
  fields: z.array(z.looseObject({ field: z.string() })),
  codes: z.looseObject({
    added: z.array(z.looseObject({})),
    removed: z.array(z.looseObject({})),
    changed: z.array(z.looseObject({})),
  }),
  applicability: z.looseObject({}),
  criteria: z.looseObject({}),
});

const claimCheck = z.looseObject({
  lines: z
    .array(
      z.looseObject({
        line: z.int(),
        input: z.looseObject({ procedure: z.string() }),
        results: z
          .array(
            z.looseObject({
              verdict: z.string(),
              policies: z.array(z.looseObject({ policy_id: z.string(), verdict: z.string() })),
            }),
          )
          .describe("one per payer x LOB category, each with the policies behind its verdict"),
      }),
    )
    .describe("the one line checked"),
});

/** The output schema of each tool: the contract's own for API bodies, the views' shape else. */
export const OUTPUT_SCHEMAS = {
  policyPage: PolicyPage,
  policyDetail: PolicyDetail,
  payerPage: PayerPage,
  lobPage: LobPage,
  updatesPage: PolicyUpdatePage,
  codeReport,
  matrix,
  versions,
  diff,
  claimCheck,
};
