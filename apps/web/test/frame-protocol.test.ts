import { describe, expect, it } from "vitest";
import { clampHeight, parseFrameMessage, toJsonParams } from "@/app/_components/extensions/frame-protocol";

describe("parseFrameMessage", () => {
  it("accepts the four frame messages", () => {
    expect(parseFrameMessage({ t: "call", id: 1, method: "get" })).toEqual({ t: "call", id: 1, method: "get", params: null });
    expect(parseFrameMessage({ t: "ready" })).toEqual({ t: "ready" });
    expect(parseFrameMessage({ t: "error", message: "boom (line 3)" })).toEqual({ t: "error", message: "boom (line 3)" });
    expect(parseFrameMessage({ t: "size", height: 120.5 })).toEqual({ t: "size", height: 120.5 });
  });

  it("drops anything malformed", () => {
    for (const bad of [null, "seam-bridge", 1, {}, { t: "call", id: "1", method: "x" }, { t: "call", id: 1, method: "" }, { t: "size", height: Number.NaN }, { t: "result", id: 1 }]) {
      expect(parseFrameMessage(bad)).toBeNull();
    }
  });
});

describe("clampHeight / toJsonParams", () => {
  it("keeps the frame between 40 and 800 px", () => {
    expect(clampHeight(0)).toBe(40);
    expect(clampHeight(300.2)).toBe(301);
    expect(clampHeight(1e6)).toBe(800);
  });

  it("turns params into JSON or says why it cannot", () => {
    expect(toJsonParams({ a: new Date(0), b: undefined })).toEqual({ ok: true, value: { a: "1970-01-01T00:00:00.000Z" } });
    expect(toJsonParams(undefined)).toEqual({ ok: true, value: null });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toJsonParams(cyclic)).toMatchObject({ ok: false });
    expect(toJsonParams(1n)).toMatchObject({ ok: false });
  });
});
