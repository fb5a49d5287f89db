import { readFile, rename, unlink, writeFile } from "node:fs/promises";
import * as z from "zod";
import { lazySchema } from "../contract/lazy.js";
import { makeTempName } from "../download/save-file.js";

/** One file a pull fetched, as the server described it (what the next pull asks about). */
export const ManifestFile = lazySchema(() =>
  z.object({
    /** The name it is kept under in the snapshot's sources folder (`ncd.zip`, `icd10cm.zip`). */
    name: z.string(),
    role: z.enum(["mcd", "icd10cm", "hcpcs"]),
    url: z.string(),
    /** The page the link was found on, when it was found on one. */
    page: z.string().nullable(),
    etag: z.string().nullable(),
    last_modified: z.string().nullable(),
    size: z.number(),
    sha256: z.string(),
  }),
);
export type ManifestFile = z.infer<typeof ManifestFile>;

/** `NAME.manifest.json` beside `NAME.db`: where a pulled snapshot came from, file by file. */
export const PullManifest = lazySchema(() =>
  z.object({
    format: z.literal(1),
    name: z.string(),
    pulled_at: z.string(),
    as_of: z.string().nullable(),
    source: z.string(),
    history: z.boolean(),
    codes: z.boolean(),
    files: z.array(ManifestFile),
  }),
);
export type PullManifest = z.infer<typeof PullManifest>;

/** The manifest beside a snapshot, or undefined when there is none or it cannot be read. */
export async function readManifest(file: string): Promise<PullManifest | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = PullManifest.safeParse(JSON.parse(text));
    // A damaged manifest only costs the next pull its conditional requests.
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the manifest under a temporary name, then renames it into place. */
export async function writeManifest(file: string, manifest: PullManifest): Promise<void> {
  const temp = makeTempName(file);
  try {
    await writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`, { flag: "wx" });
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
