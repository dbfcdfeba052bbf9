import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createHost } from "../../src/host.js";
import type { HostApi } from "../../src/host-api.js";

/** A real host on a throwaway data directory, disposed with the returned scope. */
export async function startTestHost(env: NodeJS.ProcessEnv = {}): Promise<{ scope: Scope; host: HostApi; home: string }> {
  const home = mkdtempSync(join(tmpdir(), "seam-host-"));
  const scope = createScope("test-host");
  scope.add(() => rmSync(home, { recursive: true, force: true }), "home");
  const host = await createHost(scope, { home, env: { SEAM_MODEL_PROVIDER: "none", ...env }, version: "test" });
  return { scope, host, home };
}
