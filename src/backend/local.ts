import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ApiRequest, ApiResponse } from "../api/request.js";
import { hasStoredFile, resolveStoredFile, type LoadedDataset } from "../dataset/load.js";
import { handleApiRequest, type EngineContext } from "../engine/router.js";
import { listSeries } from "../engine/series.js";
import type { Transport } from "./transport.js";

export const LOCAL_BASE_URL = "http://local";

/** The bundled engine as a transport; download links are `file://` URLs of the dataset's files. */
export function createLocalTransport(dataset: LoadedDataset, today: string): Transport {
  const ctx: EngineContext = {
    db: dataset.db,
    today,
    // The real path: the file checked by hasFile, not wherever a link points by then.
    linkFor: (_version, _variant, file) =>
      pathToFileURL(resolveStoredFile(dataset, file)?.path ?? path.resolve(dataset.dir, file)).href,
    hasFile: (file) => hasStoredFile(dataset, file),
  };
  return {
    kind: "local",
    baseUrl: LOCAL_BASE_URL,
    async send(req: ApiRequest): Promise<ApiResponse> {
      // A JSON round trip, so the engine sees exactly what the wire would carry. Not the answer's
      // (a page of code groups is a few hundred kilobytes to write and read again): the engine
      // builds plain JSON values, new for each answer but a snapshot's code groups, which are
      // frozen (a command cannot change what a later answer holds).
      const body = req.body === undefined ? undefined : JSON.parse(JSON.stringify(req.body));
      return handleApiRequest(ctx, { ...req, body });
    },
    versionsOf: (key) => Promise.resolve(listSeries(dataset.db, key)),
    ...(dataset.database ? { snapshot: dataset.database } : {}),
  };
}
