import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import path from "node:path";
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
 * under a temporary name, put in place by `publish` (replacing an older one), or removed by
 * `discard`, so a failed run leaves nothing.
 */
export class TextFolder implements TextFileStore {
  readonly name: string;
  readonly #temp: string;
  readonly #final: string;
  #made = false;

  constructor(target: string) {
    const dir = path.dirname(target);
    this.name = `${path.basename(target).replace(/\.[^.]*$/, "")}.files`;
    this.#temp = path.join(dir, `.${this.name}.${randomBytes(6).toString("hex")}.part`);
    this.#final = path.join(dir, this.name);
  }

  /** Writes one markdown file into the (temporary) folder; returns its path from the output's folder. */
  async storeText(name: string, markdown: string): Promise<string> {
    const base = path.basename(name);
    // Synchronous on purpose: a small file costs ~0.1 ms of CPU either way, but the promise
    // API makes three thread-pool round trips (open, write, close) per file, and the importer
    // waits for each before its next row; on a busy machine those waits were seconds of idle.
    if (!this.#made) {
      mkdirSync(this.#temp, { recursive: true });
      this.#made = true;
    }
    writeFileSync(path.join(this.#temp, base), markdown);
    return `${this.name}/${base}`;
  }

  /** Puts the folder in place, replacing an older one of the same name. */
  async publish(): Promise<void> {
    if (!this.#made) return;
    const old = `${this.#temp}.old`;
    const hadOld = await stat(this.#final).then(
      () => true,
      () => false,
    );
    if (hadOld) await rename(this.#final, old);
    await rename(this.#temp, this.#final);
    this.#made = false;
    if (hadOld) await rm(old, { recursive: true, force: true });
  }

  /** Removes what was written. */
  async discard(): Promise<void> {
    if (this.#made) await rm(this.#temp, { recursive: true, force: true });
    this.#made = false;
  }
}

/**
 * A sink that also keeps text files, in a TextFolder beside `target`: the folder is put in place
 * just before the inner sink publishes its output, and removed with it on failure.
 */
export function addTextFolder(sink: DatasetSink, target: string): DatasetSink & TextFileStore {
  const folder = new TextFolder(target);
  return {
    addPayer: (payer) => sink.addPayer(payer),
    addLob: (lob) => sink.addLob(lob),
    addCode: (code) => sink.addCode(code),
    addPolicy: (policy) => sink.addPolicy(policy),
    storeText: (name, markdown) => folder.storeText(name, markdown),
    async finish(meta: DatasetMeta): Promise<DatasetSummary> {
      try {
        await folder.publish();
        return await sink.finish(meta);
      } catch (err) {
        await folder.discard();
        throw err;
      }
    },
    async abort(): Promise<void> {
      await folder.discard();
      await sink.abort();
    },
  };
}
