import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime, type ToolOutcome } from "../../src/agent/runtime.js";
import { createScope } from "../../src/core/scope.js";
import { createLsp, type Interface, type LspToolResult } from "../../src/lsp/lsp.js";
import { presets } from "../../src/lsp/presets.js";
import { copyFixture, memoryStore } from "./helpers.js";

/** A second real server: pyright-langserver (the host's devDependency, found in node_modules/.bin). */
describe("lsp tool over pyright (LSP-3, LSP-7)", () => {
  const fixture = copyFixture("py-project");
  const scope = createScope("test-lsp-py", { slowDisposeMs: Infinity });
  const registry = createToolRegistry();
  const runtime = createToolRuntime({ registry });
  let lsp: Interface;
  let n = 0;
  const call = (args: Record<string, unknown>): Promise<ToolOutcome> =>
    runtime.invoke({ sessionId: "s1", workspace: fixture.ws, callId: `c${++n}`, name: "lsp", args, signal: new AbortController().signal });

  beforeAll(async () => {
    const python = presets().find((p) => p.id === "python")!;
    if (!python.available) throw new Error("pyright-langserver is missing: it is the host's devDependency (node_modules/.bin)");
    lsp = await createLsp(scope, { store: memoryStore({ lsp: { servers: [python.config] } }), registry });
  });
  afterAll(async () => {
    await scope.dispose();
    fixture[Symbol.dispose]();
  });

  it("starts pyright from its preset, with no problem", () => {
    expect(lsp.list()[0]).toMatchObject({ active: true, problem: null });
  });

  it("goToDefinition from a call to the function in another module", async () => {
    const o = await call({ operation: "goToDefinition", filePath: "app.py", line: 3, character: 11 });
    expect(o.status, o.rendered).toBe("ok");
    expect((o.canonical as LspToolResult).locations).toEqual([
      { path: "helpers.py", line: 1, character: 5, endLine: 1, endCharacter: 10, excerpt: "def greet(name: str) -> str:" },
    ]);
    expect(o.rendered).toContain("helpers.py:1:5: def greet(name: str) -> str:");
  }, 60_000);

  it("hover shows the signature and the docstring", async () => {
    const o = await call({ operation: "hover", filePath: "app.py", line: 3, character: 11 });
    expect(o.status, o.rendered).toBe("ok");
    const markdown = (o.canonical as LspToolResult).hover!.markdown;
    expect(markdown).toContain("def greet(name: str) -> str");
    expect(markdown).toContain("Return a greeting for name.");
  }, 60_000);

  it("goToImplementation, which pyright does not offer, is a clear operation_unsupported error", async () => {
    const o = await call({ operation: "goToImplementation", filePath: "app.py", line: 3, character: 11 });
    expect(o.status).toBe("error");
    expect(o.error?.code).toBe("operation_unsupported");
    expect(o.rendered).toContain("not supported by this language server");
  }, 60_000);
});
