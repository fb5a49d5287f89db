import type { ApiClient } from "../backend/client.js";
import type { DownloadVariant } from "../contract/index.js";
import { NotFoundError } from "../errors.js";

const NAME: Record<DownloadVariant, string> = {
  display: "original file",
  text: "text version",
};

/** Whether an error is the API's "this version has no stored file of that kind". */
export function isNoFileStored(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError && err.message === "No file stored for this policy";
}

/** Whether a version has a stored file of that kind (undefined: the API could not say). */
export function findFileStored(
  client: ApiClient,
  id: string,
  variant: DownloadVariant,
): Promise<boolean | undefined> {
  return client
    .downloadUrl(client.build.downloadUrl(id, variant))
    .then(() => true)
    .catch((err: unknown) => (isNoFileStored(err) ? false : undefined));
}

/** What `policy` says of a version's stored files, when the original is not stored. */
export async function describeMissingFile(
  client: ApiClient,
  id: string,
  fileType: string,
): Promise<string | undefined> {
  if ((await findFileStored(client, id, "display")) !== false) return undefined;
  return (await findFileStored(client, id, "text"))
    ? `${fileType} not stored; its ${NAME.text} is (\`coverage download ${id} --text\`)`
    : `none stored (the ${fileType} is at the source)`;
}

/**
 * The error for a version without the file asked for, said before any download is tried: one
 * look at the other variant's link tells whether to offer it or to point at the source URL
 * (its hint used to offer the other variant even when neither is stored).
 */
export async function explainNoFile(
  client: ApiClient,
  id: string,
  variant: DownloadVariant,
): Promise<NotFoundError> {
  const other: DownloadVariant = variant === "text" ? "display" : "text";
  const otherStored = await findFileStored(client, id, other);
  const command = `coverage download ${id}${other === "text" ? " --text" : ""}`;
  if (otherStored)
    return new NotFoundError(
      `${id} has no stored ${NAME[variant]}; its ${NAME[other]} is stored`,
      `Save that one: \`${command}\`.`,
    );
  if (otherStored === false)
    return new NotFoundError(
      `${id} has no stored file: neither the original file nor the text version is available`,
      `Nothing to download; read it at the source URL that \`coverage policy ${id}\` shows.`,
    );
  return new NotFoundError(
    `${id} has no stored ${NAME[variant]}`,
    `Try \`${command}\`, or the source URL that \`coverage policy ${id}\` shows.`,
  );
}
