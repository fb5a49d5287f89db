import { closeSync, openSync, writeSync } from "node:fs";
import { createTempOutput, type TempOutput } from "../files/temp-output.js";
import { checkDatasetReferences, jsonPath } from "./check.js";
import { DatasetCode, DatasetLob, DatasetPayer, DatasetPolicy } from "./schema.js";
import type { DatasetMeta, DatasetSink, DatasetSummary } from "./sink.js";
import { TextFolder, type TextFileStore } from "./text-store.js";

/**
 * Writes a `coverage-dataset` version 1 JSON file, with the stored text files in
 * `<name>.files/` beside it. Policies are written as they arrive (only their ids are kept), the
 * other records at `finish`; JSON members may come in any order, so `policies` is first.
 * Everything goes to temporary names renamed into place by `finish`: a failed or aborted run
 * leaves nothing at the output path.
 */
export class JsonDatasetSink implements DatasetSink, TextFileStore {
  private readonly payers: DatasetPayer[] = [];
  private readonly lobs: DatasetLob[] = [];
  private readonly codes: DatasetCode[] = [];
  private readonly policyIds = new Set<string>();
  private readonly linkedLobs = new Map<string, string>();
  private readonly counts = { policies: 0, applicabilityLinks: 0, codeLinks: 0 };
  private readonly files: TextFolder;
  private readonly temp: TempOutput;
  private fd: number | undefined;

  constructor(target: string, force = false) {
    this.temp = createTempOutput(target, { force });
    this.files = new TextFolder(target);
  }

  addPayer(payer: DatasetPayer): void {
    this.payers.push(DatasetPayer.parse(payer));
  }
  addLob(lob: DatasetLob): void {
    this.lobs.push(DatasetLob.parse(lob));
  }
  addCode(code: DatasetCode): void {
    this.codes.push(DatasetCode.parse(code));
  }

  addPolicy(input: DatasetPolicy): void {
    const result = DatasetPolicy.safeParse(input);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`policy ${input.policy_id}: ${jsonPath(issue.path)}: ${issue.message}`);
    }
    const policy = result.data;
    const at = `policies[${this.counts.policies}]`;
    if (this.policyIds.has(policy.policy_id))
      throw new Error(`${at}.policy_id: duplicate policy_id '${policy.policy_id}'`);
    // The rules within one policy (id shape, dates, file paths); its LOBs are checked at finish.
    const own = checkDatasetReferences(
      { format: "coverage-dataset", version: 1, payers: [], lobs: [], policies: [policy] },
      20,
    ).filter((p) => !p.message.startsWith("unknown LOB"));
    if (own.length)
      throw new Error(`${at}${own[0]!.path.slice("policies[0]".length)}: ${own[0]!.message}`);
    this.policyIds.add(policy.policy_id);
    policy.applicability.forEach((a, j) => {
      if (!this.linkedLobs.has(a.lob_id))
        this.linkedLobs.set(a.lob_id, `${at}.applicability[${j}].lob_id`);
    });
    this.fd ??= openSync(this.temp.path, "wx");
    this.write(
      `${this.counts.policies ? ",\n" : '{"format":"coverage-dataset","version":1,\n"policies":[\n'}${JSON.stringify(policy)}`,
    );
    this.counts.policies++;
    this.counts.applicabilityLinks += policy.applicability.length;
    this.counts.codeLinks += policy.codes.length;
  }

  private write(text: string): void {
    const buf = Buffer.from(text);
    for (let done = 0; done < buf.length;)
      done += writeSync(this.fd!, buf, done, buf.length - done);
  }

  /** Writes one markdown file into the (temporary) files folder; returns its dataset path. */
  storeText(name: string, markdown: string): Promise<string> {
    return this.files.storeText(name, markdown);
  }

  async finish(meta: DatasetMeta): Promise<DatasetSummary> {
    try {
      const problems = checkDatasetReferences(
        {
          format: "coverage-dataset",
          version: 1,
          payers: this.payers,
          lobs: this.lobs,
          policies: [],
        },
        5,
      );
      const lobIds = new Set(this.lobs.map((l) => l.lob_id));
      for (const [id, where] of this.linkedLobs)
        if (!lobIds.has(id)) problems.push({ path: where, message: `unknown LOB '${id}'` });
      if (problems.length)
        throw new Error(
          `the dataset does not hold together: ${problems
            .slice(0, 5)
            .map((p) => `${p.path}: ${p.message}`)
            .join("; ")}`,
        );
      this.fd ??= openSync(this.temp.path, "wx");
      const list = (items: unknown[]) => items.map((i) => `\n${JSON.stringify(i)}`).join(",");
      this.write(
        `${this.counts.policies ? "]" : '{"format":"coverage-dataset","version":1,\n"policies":['}` +
          `,\n"as_of":${JSON.stringify(meta.as_of)}` +
          `,\n"payers":[${list(this.payers)}]` +
          `,\n"lobs":[${list(this.lobs)}]` +
          `,\n"codes":[${list(this.codes)}]}\n`,
      );
      closeSync(this.fd);
      this.fd = undefined;
      // The dataset and its files folder are put in place in one synchronous step.
      this.temp.commit();
      this.files.publish();
    } catch (err) {
      await this.abort();
      throw err;
    }
    return {
      payers: this.payers.length,
      lobs: this.lobs.length,
      codes: this.codes.length,
      ...this.counts,
    };
  }

  async abort(): Promise<void> {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.temp.discard();
    this.files.discard();
  }
}
