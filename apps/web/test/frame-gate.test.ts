import { describe, expect, it } from "vitest";
import { FrameLoads, isFrameHello, isFrameNonce, newFrameNonce } from "@/app/_components/extensions/frame-gate";

describe("frame nonces", () => {
  it("are 32 fresh hex digits", () => {
    const a = newFrameNonce();
    const b = newFrameNonce();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(isFrameNonce(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  it("only the hello that carries this frame's nonce identifies the frame", () => {
    const nonce = newFrameNonce();
    expect(isFrameHello({ t: "hello", nonce }, nonce)).toBe(true);
    for (const other of [
      { t: "hello", nonce: newFrameNonce() },
      { t: "hello", nonce: nonce.toUpperCase() },
      { t: "hello" },
      { t: "ready", nonce },
      { t: "call", id: 1, method: "steal", params: null },
      "seam-bridge",
      nonce,
      null,
      undefined,
    ]) {
      expect(isFrameHello(other, nonce), JSON.stringify(other)).toBe(false);
    }
    // An empty or malformed expected nonce never matches, not even itself.
    expect(isFrameHello({ t: "hello", nonce: "" }, "")).toBe(false);
  });
});

describe("FrameLoads", () => {
  it("gives each frame element one handshake: its first load; the next load is a navigation; later ones are ignored", () => {
    const loads = new FrameLoads();
    const frame = {};
    expect(loads.load(frame)).toBe("handshake");
    expect(loads.load(frame)).toBe("navigated");
    expect(loads.load(frame)).toBe("ignore");
    expect(loads.load(frame)).toBe("ignore");
  });

  it("keeps elements apart: a reloaded frame is a new element with its own first load", () => {
    const loads = new FrameLoads();
    const first = {};
    const second = {};
    expect(loads.load(first)).toBe("handshake");
    expect(loads.load(second)).toBe("handshake");
    expect(loads.load(first)).toBe("navigated");
    expect(loads.load(second)).toBe("navigated");
  });

  it("a frame failed for another reason never gets a handshake again", () => {
    const loads = new FrameLoads();
    const frame = {};
    expect(loads.load(frame)).toBe("handshake");
    loads.fail(frame);
    expect(loads.load(frame)).toBe("ignore");
    const fresh = {};
    loads.fail(fresh);
    expect(loads.load(fresh)).toBe("ignore");
  });
});
