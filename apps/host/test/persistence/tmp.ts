import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A throwaway directory removed on dispose: `await using dir = tmpDir()`. */
export function tmpDir(prefix = "seam-db-"): AsyncDisposable & { path: string } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, [Symbol.asyncDispose]: async () => rmSync(path, { recursive: true, force: true }) };
}
