import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPACT_AT_DEFAULT, ModelSettings } from "@seam/shared";
import { settingsFromPreset } from "../../src/llm/presets.js";
import { modelSettingsFromEnv } from "../../src/settings/model.js";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { startTestHost } from "../support/host.js";
import { rejection, thrown } from "../support/errors.js";

describe("the compaction threshold setting (CTX-2)", () => {
  const base = settingsFromPreset("deepseek");

  it("CTX-2: compactAt is a whole percentage from 50 to 95; absent means the default 80", () => {
    expect(COMPACT_AT_DEFAULT).toBe(80);
    expect(ModelSettings.parse(base).compactAt).toBeUndefined();
    expect(ModelSettings.parse({ ...base, compactAt: 50 }).compactAt).toBe(50);
    expect(ModelSettings.parse({ ...base, compactAt: 95 }).compactAt).toBe(95);
    for (const [bad, message] of [[49, /at least 50/], [96, /at most 95/], [80.5, /whole percentage/], ["80", /must be a percentage/]] as const) {
      const parsed = ModelSettings.safeParse({ ...base, compactAt: bad });
      expect(parsed.success, String(bad)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["compactAt"]);
      expect(parsed.error?.issues[0]?.message).toMatch(message);
    }
  });

  it("CTX-2: SEAM_COMPACT_AT sets it from the environment; a bad value is refused with the variable's name", () => {
    expect(modelSettingsFromEnv({ SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL: "m", SEAM_COMPACT_AT: "70" }).compactAt).toBe(70);
    expect(thrown(() => modelSettingsFromEnv({ SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL: "m", SEAM_COMPACT_AT: "99" })).message)
      .toMatch(/SEAM_MODEL_\* environment settings are invalid.*compactAt/s);
  });

  describe("in the host's model settings", () => {
    let scope: Scope;
    let host: HostApi;
    beforeAll(async () => ({ scope, host } = await startTestHost()));
    afterAll(async () => scope?.dispose());

    it("CTX-2: a threshold is stored; an invalid one is refused as bad_input and nothing is stored", async () => {
      await host.settings.setModel({ ...base, compactAt: 60 });
      expect((await host.settings.model()).settings.compactAt).toBe(60);
      const error = await rejection(host.settings.setModel({ ...base, compactAt: 10 }));
      expect(error.code).toBe("bad_input:llm");
      expect(error.message).toMatch(/Compact at must be at least 50 %/);
      expect((await host.settings.model()).settings.compactAt).toBe(60);
    });
  });
});
