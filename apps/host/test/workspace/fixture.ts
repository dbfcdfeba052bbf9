import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime, type ToolOutcome } from "../../src/agent/runtime.js";
import { createLedger, type Ledger } from "../../src/workspace/ledger.js";
import { workspaceTools, type WorkspaceHooks, type WorkspaceLimits } from "../../src/workspace/workspace.js";

export interface Fixture extends AsyncDisposable {
  /** The session workspace. */
  ws: string;
  /** A sibling directory the tools must never reach. */
  outside: string;
  /** The read ledger the fixture's tools share. */
  ledger: Ledger;
  write(rel: string, content: string | Uint8Array): Promise<string>;
  link(rel: string, target: string): Promise<void>;
  /** Calls a tool as session "s" (or `sessionId`). */
  call(name: string, args: unknown, signal?: AbortSignal, sessionId?: string): Promise<ToolOutcome>;
}

/** A real temp directory with a workspace and an outside directory holding a secret. */
export async function workspaceFixture(limits: WorkspaceLimits = {}, hooks: WorkspaceHooks = {}): Promise<Fixture> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "seam-ws-")));
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "TOP SECRET\n");

  const registry = createToolRegistry();
  const ledger = createLedger();
  for (const tool of workspaceTools(limits, ledger, hooks)) registry.register(tool);
  const runtime = createToolRuntime({ registry });
  let calls = 0;

  return {
    ws,
    outside,
    ledger,
    async write(rel, content) {
      const path = join(ws, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
      return path;
    },
    async link(rel, target) {
      const path = join(ws, rel);
      await mkdir(dirname(path), { recursive: true });
      await symlink(target, path);
    },
    call: (name, args, signal = new AbortController().signal, sessionId = "s") =>
      runtime.invoke({ sessionId, workspace: ws, callId: `c${++calls}`, name, args, signal }),
    async [Symbol.asyncDispose]() {
      await rm(base, { recursive: true, force: true });
    },
  };
}
