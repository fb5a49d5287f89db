import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { UsageError } from "../errors.js";
import { checkDatasetReferences, jsonPath } from "./check.js";
import {
  DatasetCode,
  DatasetLob,
  DatasetPayer,
  DatasetPolicy,
  type DatasetInput,
} from "./schema.js";
import type { DatasetMeta, DatasetSink, DatasetSummary } from "./sink.js";

/**
 * A sink that can also store the markdown files its policies name (`files.text`). The path it
 * returns is what the policy records, relative to the dataset's folder.
 */
export interface TextFileStore {
  storeText(name: string, markdown: string): Promise<string>;
}

/** Whether a sink stores text files beside its records. */
export function storesText(sink: DatasetSink): sink is DatasetSink & TextFileStore {
  return typeof (sink as Partial<TextFileStore>).storeText === "function";
}

const exists = async (p: string) => (await stat(p).catch(() => undefined)) !== undefined;

/**
 * Collects records and writes them as one `coverage-dataset` version 1 JSON file, with the
 * stored text files in `<name>.files/` beside it. Everything is written under temporary names
 * and renamed into place by `finish`: a failed or aborted run leaves nothing at the output path.
 */
export class JsonDatasetSink implements DatasetSink, TextFileStore {
  private readonly payers: DatasetPayer[] = [];
  private readonly lobs: DatasetLob[] = [];
  private readonly codes: DatasetCode[] = [];
  private readonly policies: DatasetPolicy[] = [];
  private readonly suffix = randomBytes(6).toString("hex");
  private readonly filesName: string;
  private readonly tempFiles: string;
  private filesMade = false;

  constructor(
    private readonly target: string,
    private readonly force = false,
  ) {
    const stem = path.basename(target).replace(/\.json$/i, "");
    this.filesName = `${stem}.files`;
    this.tempFiles = path.join(path.dirname(target), `.${this.filesName}.${this.suffix}.part`);
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
  addPolicy(policy: DatasetPolicy): void {
    const result = DatasetPolicy.safeParse(policy);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`policy ${policy.policy_id}: ${jsonPath(issue.path)}: ${issue.message}`);
    }
    this.policies.push(result.data);
  }

  /** Writes one markdown file into the (temporary) files folder; returns its dataset path. */
  async storeText(name: string, markdown: string): Promise<string> {
    const base = path.basename(name);
    if (!this.filesMade) {
      await mkdir(this.tempFiles, { recursive: true });
      this.filesMade = true;
    }
    await writeFile(path.join(this.tempFiles, base), markdown);
    return `${this.filesName}/${base}`;
  }

  async finish(meta: DatasetMeta): Promise<DatasetSummary> {
    const dataset: DatasetInput = {
      format: "coverage-dataset",
      version: 1,
      as_of: meta.as_of,
      payers: this.payers,
      lobs: this.lobs,
      codes: this.codes,
      policies: this.policies,
    };
    const problems = checkDatasetReferences(dataset, 5);
    if (problems.length) {
      await this.abort();
      throw new Error(
        `the dataset does not hold together: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
      );
    }
    if (!this.force && (await exists(this.target)))
      throw new UsageError(
        `${this.target} already exists`,
        "Add --force to replace it, or choose another path with -o.",
      );
    const temp = path.join(
      path.dirname(this.target),
      `.${path.basename(this.target)}.${this.suffix}.part`,
    );
    try {
      await writeDataset(temp, dataset);
      if (this.filesMade) {
        const final = path.join(path.dirname(this.target), this.filesName);
        const old = `${this.tempFiles}.old`;
        const hadOld = await exists(final);
        if (hadOld) await rename(final, old);
        await rename(this.tempFiles, final);
        if (hadOld) await rm(old, { recursive: true, force: true });
      }
      await rename(temp, this.target);
    } catch (err) {
      await rm(temp, { force: true });
      await this.abort();
      throw err;
    }
    return {
      payers: this.payers.length,
      lobs: this.lobs.length,
      codes: this.codes.length,
      policies: this.policies.length,
      applicabilityLinks: this.policies.reduce((n, p) => n + p.applicability.length, 0),
      codeLinks: this.policies.reduce((n, p) => n + p.codes.length, 0),
    };
  }

  async abort(): Promise<void> {
    this.policies.length = 0;
    if (this.filesMade) await rm(this.tempFiles, { recursive: true, force: true });
    this.filesMade = false;
  }
}

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

/** Streams the dataset as JSON, one record a line: no single string of the whole file. */
async function writeDataset(file: string, dataset: DatasetInput): Promise<void> {
  const out = createWriteStream(file);
  const failed = new Promise<never>((_, reject) => out.once("error", reject));
  failed.catch(() => undefined);
  const work = (async () => {
    await write(
      out,
      `{"format":"coverage-dataset","version":1,"as_of":${JSON.stringify(dataset.as_of ?? null)}`,
    );
    for (const key of ["payers", "lobs", "codes", "policies"] as const) {
      const list = (dataset[key] ?? []) as unknown[];
      await write(out, `,\n"${key}":[`);
      for (let i = 0; i < list.length; i++)
        await write(out, `${i ? ",\n" : "\n"}${JSON.stringify(list[i])}`);
      await write(out, "]");
    }
    await write(out, "}\n");
    out.end();
    await once(out, "finish");
  })();
  await Promise.race([work, failed]);
}
