import { crc32 } from "node:zlib";
import yauzl from "yauzl";
import { UsageError } from "../errors.js";
import { checkNotSymlink, unsafeNameError } from "../import/mcd/zip-entries.js";

/**
 * Why a zip is not whole (a truncated download, bytes changed on the way, not a zip at all),
 * or undefined when every entry inflates to its recorded size and CRC-32. Reads the whole
 * file once; nothing is written. An entry no export holds (a climbing or absolute name, a
 * symbolic link) is no damage but a file that is not the export: a UsageError naming it.
 */
export async function findZipDamage(
  file: string,
  label: string,
  fix: string,
): Promise<string | undefined> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) =>
        err ? reject(err) : resolve(z),
      ),
    );
  } catch (err) {
    return (err as Error).message;
  }
  try {
    let entries = 0;
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        zip.once("entry", resolve);
        zip.once("end", () => resolve(undefined));
        zip.once("error", reject);
        zip.readEntry();
      }).finally(() => zip.removeAllListeners());
      if (!entry) break;
      entries++;
      checkNotSymlink(entry, label, fix);
      if (entry.fileName.endsWith("/")) continue;
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
      );
      let crc = 0;
      // yauzl checks the inflated size against the entry's; the CRC is ours to check.
      for await (const chunk of stream as AsyncIterable<Buffer>) crc = crc32(chunk, crc);
      if (crc >>> 0 !== entry.crc32)
        return `${entry.fileName}: its bytes do not match the zip's checksum (CRC-32)`;
    }
    return entries ? undefined : "the zip holds no files";
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const unsafe = unsafeNameError(err as Error, label, fix);
    if (unsafe) throw unsafe;
    return (err as Error).message;
  } finally {
    zip.close();
  }
}
