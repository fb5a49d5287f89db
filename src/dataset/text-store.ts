import type { DatasetSink } from "./sink.js";

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
