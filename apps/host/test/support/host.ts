import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScope, type Scope } from "../../src/core/scope.js";
import { startScriptedModel, type ScriptedModel } from "../../../../packages/testkit/src/index.js";
import type { ScriptedModelOptions } from "../../../../packages/testkit/src/scripted-model/server.js";
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

/**
 * A real host whose model is the scripted OpenAI-compatible server (`@seam/testkit`), at most 3 steps a turn.
 * Disposing the scope closes the model server too.
 */
export async function startScriptedHost(scripts: ScriptedModelOptions["scripts"], modelId: string): Promise<{ scope: Scope; host: HostApi; model: ScriptedModel }> {
  const model = await startScriptedModel({ scripts });
  const { scope, host } = await startTestHost({
    SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: model.baseURL, SEAM_MODEL: modelId, SEAM_MAX_STEPS: "3",
  });
  scope.add(() => model.close(), "scripted-model");
  return { scope, host, model };
}
