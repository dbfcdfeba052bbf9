import { afterEach, describe, expect, it, vi } from "vitest";
import { warmProvider } from "../../src/llm/llm.js";

describe("the warm-up's rehearsal step (#17 item 2)", () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  for (const provider of ["openai-compatible", "anthropic"] as const) {
    it(`${provider}: runs one step through the real adapter and Seam's event mapping, without the network`, async () => {
      const network = vi.fn(() => Promise.reject(new Error("the rehearsal must not use the network")));
      vi.stubGlobal("fetch", network);
      const events = await warmProvider(provider);
      expect(network).not.toHaveBeenCalled();
      // Every part of a step was parsed: text, a tool call with its arguments, the finish with usage.
      expect(events).toEqual([
        { type: "text", delta: "ok" },
        { type: "tool_call", id: expect.any(String), name: "warm_up", args: {} },
        { type: "finish", reason: "tool_calls", usage: expect.objectContaining({ inputTokens: 1, outputTokens: 1 }) },
      ]);
    });
  }

  it("none (direct mode): nothing to rehearse", async () => {
    expect(await warmProvider("none")).toEqual([]);
  });
});
