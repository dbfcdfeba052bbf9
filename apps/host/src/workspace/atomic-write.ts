import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** New files are created with this mode, less the process umask. */
export const NEW_FILE_MODE = 0o644;
const TEMP_MARK = ".seam-tmp-";
/** File names are at most 255 bytes; the temp name adds a dot, the mark and 12 hex digits. */
const MAX_BASE_BYTES = 200;

/** `.<name>.seam-tmp-<random>`: a temp file left behind by a killed write is recognisable as Seam's. */
export function tempNameFor(target: string): string {
  let base = basename(target);
  while (Buffer.byteLength(base) > MAX_BASE_BYTES) base = base.slice(0, -1);
  return join(dirname(target), `.${base}${TEMP_MARK}${randomBytes(6).toString("hex")}`);
}

export const isTempName = (name: string): boolean => name.startsWith(".") && name.includes(TEMP_MARK);

/**
 * Replaces (or creates) `target` so that a crash at any point leaves either the old or the new
 * content: the bytes go to a temp file in the same folder, which is fsynced and renamed over the
 * target. `mode` (the old file's permission bits) is set on the temp file before the rename; without
 * it the file gets NEW_FILE_MODE less the umask. The temp file is removed if anything fails.
 */
export async function atomicWrite(target: string, bytes: Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const temp = tempNameFor(target);
  const file = await open(temp, "wx", NEW_FILE_MODE);
  let renamed = false;
  try {
    try {
      await file.writeFile(bytes);
      // fchmod is not subject to the umask, so an existing 0755 script stays 0755.
      if (options.mode !== undefined) await file.chmod(options.mode & 0o7777);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => {});
  }
}
