import type { LspServerView, WebSettings } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { describeField, draftFrom as lspDraftFrom, emptyDraft, extensionConflicts, hostErrorFields, parseDraft as parseLsp, parseInitOptions } from "@/app/_components/settings/lsp-draft";
import { parseDraft as parseModel, type ModelDraft } from "@/app/_components/settings/model-form-state";
import { describeErrorKey, draftFrom as webDraftFrom, parseDraft as parseWeb } from "@/app/_components/settings/web-draft";
import { hostCodeOf } from "@/lib/host-error";

describe("model draft", () => {
  const draft: ModelDraft = { provider: "openai-compatible", baseURL: " https://api.example.com/v1 ", model: "m", apiKeyEnv: "", maxSteps: "25", contextWindow: "", deferMaxTools: "", deferMaxPercent: "", compactAt: "" };
  it("trims, drops empty fields and reads max steps as a number", () => {
    const r = parseModel(draft);
    expect(r.ok && r.value).toMatchObject({ provider: "openai-compatible", baseURL: "https://api.example.com/v1", model: "m", maxSteps: 25 });
    expect(r.ok && "apiKeyEnv" in r.value && r.value.apiKeyEnv !== undefined).toBe(false);
  });
  it("requires a base URL for an OpenAI-compatible provider", () => {
    expect(parseModel({ ...draft, baseURL: "  " })).toEqual({ ok: false, errors: { baseURL: "Base URL is required" } });
  });
  it("CTX-1: reads the context window as tokens, empty as the documented default, and refuses a bad one with a clear message", () => {
    const empty = parseModel(draft);
    expect(empty.ok && empty.value.contextWindow).toBeUndefined();
    const set = parseModel({ ...draft, contextWindow: " 128,000 " });
    expect(set.ok && set.value.contextWindow).toBe(128_000);
    for (const bad of ["0", "12.5", "lots", "99999999"]) {
      const r = parseModel({ ...draft, contextWindow: bad });
      expect(r.ok ? null : r.errors.contextWindow, bad).toMatch(/^Context window must be/);
    }
  });
  it("CTX-3: reads the deferral budget, empty as the defaults, one empty limit as its default, and puts a bad one on its field", () => {
    const empty = parseModel(draft);
    expect(empty.ok && empty.value.deferTools).toBeUndefined();
    const set = parseModel({ ...draft, deferMaxTools: " 1,000 ", deferMaxPercent: "5 %" });
    expect(set.ok && set.value.deferTools).toEqual({ maxTools: 1_000, maxPercent: 5 });
    const one = parseModel({ ...draft, deferMaxTools: "", deferMaxPercent: "25" });
    expect(one.ok && one.value.deferTools).toEqual({ maxTools: 40, maxPercent: 25 });
    const tools = parseModel({ ...draft, deferMaxTools: "0" });
    expect(tools.ok ? null : tools.errors.deferMaxTools).toBe("Max tools must be at least 1");
    const percent = parseModel({ ...draft, deferMaxPercent: "150" });
    expect(percent.ok ? null : percent.errors.deferMaxPercent).toBe("Max percent of the window must be at most 100");
    const word = parseModel({ ...draft, deferMaxTools: "many" });
    expect(word.ok ? null : word.errors.deferMaxTools).toMatch(/^Max tools must be/);
  });
  it("CTX-2: reads the compaction threshold as a percentage, empty as the default, and refuses one outside 50–95 %", () => {
    const empty = parseModel(draft);
    expect(empty.ok && empty.value.compactAt).toBeUndefined();
    expect(parseModel({ ...draft, compactAt: " 70 % " })).toMatchObject({ ok: true, value: { compactAt: 70 } });
    for (const [bad, message] of [["40", /at least 50/], ["99", /at most 95/], ["72.5", /whole percentage/], ["soon", /must be a percentage/]] as const) {
      const r = parseModel({ ...draft, compactAt: bad });
      expect(r.ok ? null : r.errors.compactAt, bad).toMatch(message);
    }
  });
  it("words a bad step count for people", () => {
    const r = parseModel({ ...draft, maxSteps: "0" });
    expect(r.ok ? null : r.errors.maxSteps).toBe("Max steps must be a whole number from 1 to 200");
  });
});

describe("web draft", () => {
  const settings = (over: Partial<WebSettings> = {}): WebSettings => {
    const r = parseWeb({
      searchEnabled: true, fetchEnabled: true, searchProvider: "", fetchProvider: "", searchMaxQueries: "4", searchMaxResults: "8",
      fetchMaxChars: "200000", searchTimeoutS: "30", fetchTimeoutS: "30", fetchProbeUrl: "https://example.com/", fetchAllowlist: [], providers: {},
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return { ...r.value, ...over };
  };
  it("round-trips settings through the draft, with seconds in the form and ms in the settings", () => {
    const s = settings({ searchTimeoutMs: 12_500, fetchAllowlist: ["intranet.example"], providers: { exa: { apiKeyEnv: "EXA_KEY" } } });
    const d = webDraftFrom(s);
    expect(d.searchTimeoutS).toBe("12.5");
    expect(d.fetchAllowlist.map((r) => r.value)).toEqual(["intranet.example"]);
    const back = parseWeb(d);
    expect(back.ok && back.value).toEqual(s);
  });
  it("names fields by the form's keys, rows by their id, and refuses duplicates", () => {
    const d = webDraftFrom(settings({ fetchAllowlist: ["a.example", "A.example"] }));
    const r = parseWeb({ ...d, searchMaxResults: "99", fetchTimeoutS: "0" });
    expect(r.ok).toBe(false);
    const errors = r.ok ? {} : r.errors;
    expect(errors.searchMaxResults).toBe("Sources per call must be a whole number from 1 to 50");
    expect(errors.fetchTimeoutS).toBe("The fetch timeout must be from 1 to 600 seconds");
    expect(errors[`fetchAllowlist.${d.fetchAllowlist[1]!.id}`]).toBe("Already in the list");
    expect(Object.keys(errors).map(describeErrorKey).sort()).toEqual(["fetch allowlist", "fetch timeout", "sources per call"]);
    expect(describeErrorKey("providers.exa.apiKeyEnv")).toBe("exa key variable");
  });
});

describe("language server draft", () => {
  const base = { ...emptyDraft(), id: "rust", command: "rust-analyzer", extensions: [".rs"] };
  it("turns typed chip text into extensions and minutes into ms", () => {
    const r = parseLsp({ ...base, extensionInput: "RON, .rs", idleMinutes: "1.5", args: " --stdio \n\n" });
    expect(r.ok && r.value).toMatchObject({ extensions: [".rs", ".ron"], idleTimeoutMs: 90_000, args: ["--stdio"] });
  });
  it("reports bad JSON and bad extensions on their fields", () => {
    const r = parseLsp({ ...base, extensionInput: "a b/c", initOptions: "[1]" });
    expect(r.ok).toBe(false);
    const errors = r.ok ? {} : r.errors;
    expect(errors.extensions).toMatch(/not a file extension/);
    expect(errors.initOptions).toMatch(/Must be a JSON object/);
    expect(parseInitOptions("{nope").ok).toBe(false);
    expect(parseInitOptions("  ")).toEqual({ ok: true, value: undefined });
  });
  it("keeps the default idle timeout out of the form", () => {
    const config = { id: "ts", command: "tsls", args: [], extensions: [".ts"], enabled: true, idleTimeoutMs: 600_000 };
    expect(lspDraftFrom(config).idleMinutes).toBe("");
    expect(lspDraftFrom({ ...config, idleTimeoutMs: 90_000 }).idleMinutes).toBe("1.5");
  });
  it("finds the other enabled servers that already claim an extension", () => {
    const view = (id: string, extensions: string[], enabled = true) => ({ config: { id, command: id, args: [], extensions, enabled, idleTimeoutMs: 600_000 } }) as unknown as LspServerView;
    const servers = [view("rust", [".rs"]), view("ron", [".ron"]), view("off", [".ron"], false)];
    expect(extensionConflicts([".rs", ".ron"], "rust", servers).map((c) => `${c.extension}→${c.server.config.id}`)).toEqual([".ron→ron"]);
  });
  it("places a host refusal next to its field", () => {
    const error = { message: "extensions.0: .ts is already routed to typescript", data: { hostCode: "extension_conflict" } };
    expect(hostCodeOf(error)).toBe("extension_conflict");
    expect(hostErrorFields(error)).toEqual({ extensions: ".ts is already routed to typescript" });
    expect(hostErrorFields({ message: "rust-analyzer: not found on PATH", data: { hostCode: "command_not_found" } })).toEqual({ command: "rust-analyzer: not found on PATH" });
    expect(hostErrorFields({ message: "the disk is full" })).toEqual({ form: "the disk is full" });
    expect(hostCodeOf(new Error("plain"))).toBeNull();
    expect(describeField("initOptions")).toBe("initialization options");
  });
});
