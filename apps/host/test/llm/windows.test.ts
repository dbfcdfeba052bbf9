import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelSettings } from "@seam/shared";
import { contextWindowFor, MODEL_PRESETS, settingsFromPreset } from "../../src/llm/presets.js";
import { modelSettingsFromEnv } from "../../src/settings/model.js";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { startTestHost } from "../support/host.js";
import { rejection, thrown } from "../support/errors.js";

describe("context windows of model presets (CTX-1)", () => {
  it("CTX-1: the hosted presets know their documented windows; local servers depend on the model and say unknown", () => {
    expect(contextWindowFor(settingsFromPreset("deepseek"))).toEqual({ value: 128_000, source: "model", default: 128_000 });
    expect(contextWindowFor({ ...settingsFromPreset("anthropic"), model: "claude-sonnet-4-5" })).toEqual({ value: 200_000, source: "model", default: 200_000 });
    // A model id the table does not know falls back to the endpoint's preset.
    expect(contextWindowFor({ ...settingsFromPreset("anthropic"), model: "some-new-model" })).toEqual({ value: 200_000, source: "preset", default: 200_000 });
    expect(contextWindowFor({ ...settingsFromPreset("openai"), model: "gpt-4o-mini" }).value).toBe(128_000);
    expect(contextWindowFor({ ...settingsFromPreset("openai"), model: "gpt-4.1" }).value).toBe(1_047_576);
    expect(contextWindowFor({ ...settingsFromPreset("ollama"), model: "qwen2.5-coder" })).toEqual({ value: null, source: "unknown", default: null });
    expect(contextWindowFor({ provider: "none", maxSteps: 25 })).toEqual({ value: null, source: "unknown", default: null });
    for (const p of MODEL_PRESETS) if (p.apiKeyEnv) expect(p.contextWindow, p.id).toBeGreaterThan(0);
  });

  it("CTX-1: the user's window wins over the model's and the preset's, which stays visible as the default", () => {
    expect(contextWindowFor({ ...settingsFromPreset("deepseek"), contextWindow: 64_000 })).toEqual({ value: 64_000, source: "setting", default: 128_000 });
    expect(contextWindowFor({ ...settingsFromPreset("ollama"), model: "llama3", contextWindow: 32_768 })).toEqual({ value: 32_768, source: "setting", default: null });
  });

  it("CTX-1: invalid windows are refused with a message that says what is allowed", () => {
    const base = settingsFromPreset("deepseek");
    for (const bad of [0, 512, 1.5, -1, 20_000_000, "128k"]) {
      const parsed = ModelSettings.safeParse({ ...base, contextWindow: bad });
      expect(parsed.success, String(bad)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["contextWindow"]);
      expect(parsed.error?.issues[0]?.message).toMatch(/Context window must be/);
    }
    expect(ModelSettings.parse({ ...base, contextWindow: 1_024 }).contextWindow).toBe(1_024);
    expect(thrown(() => modelSettingsFromEnv({ SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL: "m", SEAM_CONTEXT_WINDOW: "lots" })).message)
      .toMatch(/SEAM_MODEL_\* environment settings are invalid.*contextWindow/s);
    expect(modelSettingsFromEnv({ SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL: "m", SEAM_CONTEXT_WINDOW: "32768" }).contextWindow).toBe(32_768);
  });
});

describe("the window in the model settings (CTX-1)", () => {
  let scope: Scope;
  let host: HostApi;
  beforeAll(async () => ({ scope, host } = await startTestHost()));
  afterAll(async () => scope?.dispose());

  it("CTX-1: the status shows the window in use and the default; an override is stored and wins", async () => {
    const saved = await host.settings.setModel({ ...settingsFromPreset("deepseek"), contextWindow: 64_000 });
    expect(saved.window).toEqual({ value: 64_000, source: "setting", default: 128_000 });
    expect((await host.settings.model()).settings.contextWindow).toBe(64_000);
    const cleared = await host.settings.setModel(settingsFromPreset("deepseek"));
    expect(cleared.window).toEqual({ value: 128_000, source: "model", default: 128_000 });
  });

  it("CTX-1: an invalid window is refused as bad_input and nothing is stored", async () => {
    await host.settings.setModel({ ...settingsFromPreset("anthropic"), model: "claude-x", contextWindow: 100_000 });
    const error = await rejection(host.settings.setModel({ ...settingsFromPreset("anthropic"), model: "claude-x", contextWindow: 10 }));
    expect(error.code).toBe("bad_input:llm");
    expect(error.message).toMatch(/Context window must be at least 1,024 tokens/);
    expect((await host.settings.model()).settings.contextWindow).toBe(100_000);
  });
});
