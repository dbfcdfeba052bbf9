import { afterAll, describe, expect, it } from "vitest";
import type { CapabilityRow, WebHealth, WebKindHealth } from "@seam/shared";
import { capabilityOverview } from "../src/capabilities.js";
import { webStatus } from "../src/web/status.js";
import { startTestHost } from "./support/host.js";

const kind = (k: "search" | "fetch", selection: WebKindHealth["selection"]): WebKindHealth => ({
  kind: k, tool: k === "search" ? "web_search" : "web_fetch", enabled: true, configuredId: null, configuredBy: null,
  envVar: `SEAM_WEB_${k.toUpperCase()}_PROVIDER`, lockedByEnv: false, selection,
  providers: (k === "search" ? ["exa", "perplexity"] : ["http"]).map((id) => ({
    kind: k, id, label: id, registered: true, configured: false, available: selection.ok, selected: selection.ok && selection.id === id,
    problem: null, keySource: null, endpoint: null, lastCall: null,
  })),
});

const webRow = (web: WebHealth) => webStatus([], web);

describe("capability overview (UI-2)", () => {
  it("says briefly why the web capability is not ready and what to do", () => {
    const row = webRow({
      search: kind("search", { ok: false, code: "no_provider_available", message: "a long message from the seam" }),
      fetch: kind("fetch", { ok: true, id: "http" }),
    });
    expect(row.ready).toBe(false);
    expect(row.note).toBe("web_search: no provider is available; give one of exa, perplexity its key and choose it in Settings → Web.");
  });

  it("is ready when selection succeeds for every enabled tool, naming the providers in use", () => {
    const row = webRow({ search: kind("search", { ok: true, id: "exa" }), fetch: kind("fetch", { ok: true, id: "http" }) });
    expect(row).toMatchObject({ codePresent: true, configured: true, ready: true, note: "web_search uses exa; web_fetch uses http." });
  });

  it("asks each capability for its row, in order, and waits for the ones that answer later", async () => {
    const row = (id: string): CapabilityRow => ({ id, title: id, codePresent: true, configured: true, visible: true, ready: true, note: "", tools: [] });
    const overview = capabilityOverview([() => row("a"), async () => row("b"), () => row("c")]);
    expect((await overview.list()).map((r) => r.id)).toEqual(["a", "b", "c"]);
  });

  const started = startTestHost();
  afterAll(async () => (await started).scope.dispose());

  it("a host lists every capability with its own row, each naming the tools it registered", async () => {
    const { host } = await started;
    const rows = await host.capabilities.list();
    expect(rows.map((r) => r.id)).toEqual(["model", "permissions", "workspace", "shell", "checkpoints", "web", "lsp", "mcp", "skills", "extensions"]);
    expect(rows.find((r) => r.id === "model")).toMatchObject({ configured: false, ready: false });
    expect(rows.find((r) => r.id === "permissions")).toMatchObject({ configured: true, ready: true, tools: [] });
    expect(rows.find((r) => r.id === "workspace")).toMatchObject({ ready: true, tools: ["edit_file", "glob", "grep", "list_dir", "read_file", "write_file"] });
    expect(rows.find((r) => r.id === "skills")).toMatchObject({ ready: true, tools: ["skill"] });
    expect(rows.find((r) => r.id === "mcp")).toMatchObject({ configured: false, ready: false, tools: [] });
    const extensions = rows.find((r) => r.id === "extensions")!;
    expect(extensions.ready).toBe(true);
    expect(extensions.tools).toEqual(expect.arrayContaining(["extension_define", "extension_inspect", "extension_run", "extension_stop", "extension_undefine"]));
  });
});
