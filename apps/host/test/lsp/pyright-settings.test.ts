import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime, type ToolOutcome } from "../../src/agent/runtime.js";
import { createScope } from "../../src/core/scope.js";
import { createLsp, type Interface, type LspToolResult } from "../../src/lsp/lsp.js";
import { presets } from "../../src/lsp/presets.js";
import { copyFixture, memoryStore } from "./helpers.js";

/**
 * pyright asks `workspace/configuration` for `python`, `python.analysis` and `pyright`: its configured
 * settings change what it finds (LSP-8). `vendor/` is no import root of its own; `python.analysis.extraPaths`
 * makes it one.
 */
describe("pyright reads its settings through workspace/configuration (LSP-8)", () => {
  const fixture = copyFixture("py-project");
  const scope = createScope("test-lsp-py-settings", { slowDisposeMs: Infinity });
  const registry = createToolRegistry();
  const runtime = createToolRuntime({ registry });
  let lsp: Interface;
  let n = 0;
  const python = presets().find((p) => p.id === "python")!;
  const call = async (args: Record<string, unknown>): Promise<LspToolResult> => {
    const o: ToolOutcome = await runtime.invoke({ sessionId: "s1", workspace: fixture.ws, callId: `c${++n}`, name: "lsp", args, signal: new AbortController().signal });
    expect(o.status, o.rendered).toBe("ok");
    return o.canonical as LspToolResult;
  };
  const definition = () => call({ operation: "goToDefinition", filePath: "uses_vendor.py", line: 3, character: 8 });

  beforeAll(async () => {
    if (!python.available) throw new Error("pyright-langserver is missing: it is the host's devDependency (node_modules/.bin)");
    mkdirSync(join(fixture.ws, "vendor"));
    writeFileSync(join(fixture.ws, "vendor", "tools_lib.py"), "def shout(text: str) -> str:\n    return text.upper()\n");
    writeFileSync(join(fixture.ws, "uses_vendor.py"), "from tools_lib import shout\n\nprint(shout(\"hi\"))\n");
    lsp = await createLsp(scope, { store: memoryStore({ lsp: { servers: [python.config] } }), registry });
  });
  afterAll(async () => {
    await scope.dispose();
    fixture[Symbol.dispose]();
  });

  it("without settings the vendored module does not resolve; with python.analysis.extraPaths it does", async () => {
    // The server answers (a module at the root resolves), so the empty answer below is the import path's doing.
    expect((await call({ operation: "goToDefinition", filePath: "app.py", line: 3, character: 11 })).locations).toMatchObject([{ path: "helpers.py", line: 1 }]);
    const before = await definition();
    expect(before.locations).toEqual([]);

    await lsp.api.update({ id: "python", config: { ...python.config, settings: { python: { analysis: { extraPaths: ["vendor"] } } } } });
    const after = await definition();
    expect(after.locations).toMatchObject([{ path: "vendor/tools_lib.py", line: 1, character: 5, excerpt: "def shout(text: str) -> str:" }]);
  }, 90_000);

  it("pyright.disableLanguageServices turns its answers off", async () => {
    await lsp.api.update({ id: "python", config: { ...python.config, settings: { python: { analysis: { extraPaths: ["vendor"] } }, pyright: { disableLanguageServices: true } } } });
    const off = await definition();
    expect(off.locations).toEqual([]);
    const hover = await call({ operation: "hover", filePath: "app.py", line: 3, character: 11 });
    expect(hover.hover).toBeUndefined();
  }, 90_000);
});
