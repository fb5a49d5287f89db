import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createTempOutput, type TempOutput } from "../files/temp-output.js";
import type { SnapshotSink } from "../snapshot/writer.js";
import type { DatasetMeta, DatasetSink, DatasetSummary } from "./sink.js";

/**
 * What a sink offers when it can also keep the markdown files its policies name
 * (`files.text`): the importer stores a document's text, then records the path returned,
 * relative to the dataset's folder (or however the sink addresses its stored files).
 */
export interface TextFileStore {
  storeText(name: string, markdown: string): Promise<string>;
}

/** Whether a sink stores text files beside its records. */
export function storesText(sink: DatasetSink): sink is DatasetSink & TextFileStore {
  return typeof (sink as Partial<TextFileStore>).storeText === "function";
}

/**
 * The `<name>.files/` folder beside an output file (`medicare.json` or `medicare.db`): written
 * under a temporary name (temp-output.ts), put in place by `publish` (replacing an older one),
 * or removed by `discard`, so a failed or interrupted run leaves nothing.
 */
export class TextFolder implements TextFileStore {
  readonly name: string;
  readonly #temp: TempOutput;
  #made = false;

  constructor(target: string) {
    const dir = path.dirname(target);
    this.name = `${path.basename(target).replace(/\.[^.]*$/, "")}.files`;
    this.#temp = createTempOutput(path.join(dir, this.name), { kind: "folder" });
  }

  /** Writes one markdown file into the (temporary) folder; returns its path from the output's folder. */
  async storeText(name: string, markdown: string): Promise<string> {
    const base = path.basename(name);
    // Synchronous on purpose: a small file costs ~0.1 ms of CPU either way, but the promise
    // API makes three thread-pool round trips (open, write, close) per file, and the importer
    // waits for each before its next row; on a busy machine those waits were seconds of idle.
    if (!this.#made) {
      mkdirSync(this.#temp.path, { recursive: true });
      this.#made = true;
    }
    writeFileSync(path.join(this.#temp.path, base), markdown);
    return `${this.name}/${base}`;
  }

  /** Puts the folder in place, replacing an older one of the same name (synchronously). */
  publish(): void {
    this.#temp.commit();
  }

  /** Removes what was written. */
  discard(): void {
    this.#temp.discard();
  }
}

/**
 * A snapshot sink that also keeps text files, in a TextFolder beside `target`: the folder is put
 * in place in the same synchronous step as the snapshot, and removed with it on failure.
 */
export function addTextFolder(sink: SnapshotSink, target: string): SnapshotSink & TextFileStore {
  const folder = new TextFolder(target);
  return {
    addPayer: (payer) => sink.addPayer(payer),
    addLob: (lob) => sink.addLob(lob),
    addCode: (code) => sink.addCode(code),
    addPolicy: (policy) => sink.addPolicy(policy),
    storeText: (name, markdown) => folder.storeText(name, markdown),
    async finish(meta: DatasetMeta): Promise<DatasetSummary> {
      try {
        return await sink.finish(meta, () => folder.publish());
      } catch (err) {
        folder.discard();
        throw err;
      }
    },
    async abort(): Promise<void> {
      folder.discard();
      await sink.abort();
    },
  };
}
