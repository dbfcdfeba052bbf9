import { describe, expect, it } from "vitest";
import type { ModelStatus, WebHealth, WebKindHealth } from "@seam/shared";
import { capabilityRows } from "../src/capabilities.js";

const model: ModelStatus = { settings: { provider: "none", maxSteps: 25 }, mode: "direct", keySource: null, problem: null };

const kind = (k: "search" | "fetch", selection: WebKindHealth["selection"]): WebKindHealth => ({
  kind: k, tool: k === "search" ? "web_search" : "web_fetch", enabled: true, configuredId: null, configuredBy: null,
  envVar: `SEAM_WEB_${k.toUpperCase()}_PROVIDER`, lockedByEnv: false, selection,
  providers: (k === "search" ? ["exa", "perplexity"] : ["http"]).map((id) => ({
    kind: k, id, label: id, registered: true, configured: false, available: selection.ok, selected: selection.ok && selection.id === id,
    problem: null, keySource: null, endpoint: null, lastCall: null,
  })),
});

const webRow = (web: WebHealth) => capabilityRows([], model, [], web).find((r) => r.id === "web")!;

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

  it("lists every capability, the unbuilt ones honestly", () => {
    const rows = capabilityRows([], model, []);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(["model", "workspace", "mcp", "skills", "extensions"]));
    expect(rows.find((r) => r.id === "extensions")).toMatchObject({ codePresent: true, ready: false, note: "The extension tools are not registered." });
  });
});
