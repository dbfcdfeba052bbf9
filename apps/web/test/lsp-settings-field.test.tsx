// @vitest-environment happy-dom
import type { LspServerConfig } from "@seam/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeField, draftFrom, emptyDraft, hostErrorFields, parseDraft, parseSettings } from "@/app/_components/settings/lsp-draft";
import { LspForm } from "@/app/_components/settings/lsp-form";

const mutations = vi.hoisted(() => ({ add: vi.fn(), update: vi.fn() }));
vi.mock("@/trpc/react", () => ({ useTRPCClient: () => ({ lsp: { add: { mutate: mutations.add }, update: { mutate: mutations.update } } }) }));
vi.mock("@/app/_components/settings/lsp-use", () => ({ useInvalidateLsp: () => () => {} }));

afterEach(() => {
  cleanup();
  mutations.add.mockReset();
  mutations.update.mockReset();
});

const config: LspServerConfig = { id: "python", command: "pyright-langserver", args: ["--stdio"], extensions: [".py"], enabled: true, idleTimeoutMs: 600_000 };

describe("the settings field's validation (LSP-8)", () => {
  it("empty is none; an object is the value; anything else says what it is instead", () => {
    expect(parseSettings("  \n")).toEqual({ ok: true, value: undefined });
    expect(parseSettings('{"python": {"analysis": {"extraPaths": ["vendor"]}}}')).toEqual({ ok: true, value: { python: { analysis: { extraPaths: ["vendor"] } } } });
    const notJson = parseSettings("{python: 1}");
    expect(notJson.ok).toBe(false);
    expect(!notJson.ok && notJson.message).toMatch(/^Not valid JSON: /);
    for (const [text, kind] of [["[1, 2]", "an array"], ["42", "a number"], ['"python"', "a string"], ["null", "null"], ["true", "a boolean"]] as const) {
      const r = parseSettings(text);
      expect(!r.ok && r.message).toBe(`Must be a JSON object, like {"python": {"analysis": {"extraPaths": ["vendor"]}}} — this is ${kind}`);
    }
  });

  it("the draft puts the settings into the config, or the problem on the settings field only", () => {
    const base = draftFrom(config);
    expect(base.settings).toBe("");
    const ok = parseDraft({ ...base, settings: '{ "pyright": { "disableLanguageServices": false } }' });
    expect(ok.ok && ok.value.settings).toEqual({ pyright: { disableLanguageServices: false } });
    const plain = parseDraft(base);
    expect(plain.ok ? plain.value : { settings: "refused" }).not.toHaveProperty("settings");
    const bad = parseDraft({ ...base, settings: "[]" });
    expect(bad.ok ? {} : bad.errors).toEqual({ settings: expect.stringContaining("this is an array") });
    // The shared schema's bounds land on the same field.
    const big = parseDraft({ ...base, settings: JSON.stringify({ x: "y".repeat(100_001) }) });
    expect(big.ok ? {} : big.errors).toEqual({ settings: expect.stringMatching(/characters as JSON; the limit is 100,000/) });
    expect(describeField("settings")).toBe("settings");
  });

  it("saved settings are shown pretty-printed, and a host refusal of them lands on the field", () => {
    expect(draftFrom({ ...config, settings: { python: { analysis: {} } } }).settings).toBe('{\n  "python": {\n    "analysis": {}\n  }\n}');
    expect(draftFrom({ ...config, settings: {} }).settings).toBe("");
    expect(hostErrorFields({ message: "settings: Must be a JSON object like {…}, not an array", data: { hostCode: "invalid_config" } })).toEqual({ settings: "Must be a JSON object like {…}, not an array" });
    expect(emptyDraft().settings).toBe("");
  });
});

describe("the settings field in the server form (LSP-8)", () => {
  const renderForm = () => {
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    const onSaved = vi.fn();
    render(
      <QueryClientProvider client={client}>
        <LspForm mode="edit" initial={draftFrom(config)} servers={[]} onSaved={onSaved} onCancel={() => {}} />
      </QueryClientProvider>,
    );
    return { onSaved, field: screen.getByTestId("lsp-settings") as HTMLTextAreaElement };
  };

  it("shows invalid JSON when the field is left, refuses to save, then saves the object once fixed", async () => {
    const user = userEvent.setup();
    const { onSaved, field } = renderForm();
    await user.click(field);
    await user.paste("[1, 2]");
    await user.tab();
    const error = () => screen.queryAllByTestId("lsp-form-error").find((e) => e.getAttribute("data-field") === "settings");
    expect(error()?.textContent).toContain("Must be a JSON object");
    expect(field.getAttribute("aria-invalid")).toBe("true");

    await user.click(screen.getByTestId("lsp-save"));
    expect(mutations.update).not.toHaveBeenCalled();
    expect(screen.queryAllByTestId("lsp-form-error").find((e) => e.getAttribute("data-field") === "form")?.textContent).toBe("Not saved — check settings.");

    await user.clear(field);
    await user.paste('{"python": {"analysis": {"extraPaths": ["vendor"]}}}');
    mutations.update.mockImplementation(async (input: { config: LspServerConfig }) => ({ config: input.config, active: true, problem: null, processes: [] }));
    await user.click(screen.getByTestId("lsp-save"));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(mutations.update).toHaveBeenCalledWith({ id: "python", config: expect.objectContaining({ settings: { python: { analysis: { extraPaths: ["vendor"] } } } }) });
    expect(error()).toBeUndefined();
  });

  it("a valid object says so in the hint", async () => {
    const user = userEvent.setup();
    const { field } = renderForm();
    await user.click(field);
    await user.paste('{"a": 1}');
    expect(field.parentElement?.textContent).toContain("Valid JSON object");
  });
});
