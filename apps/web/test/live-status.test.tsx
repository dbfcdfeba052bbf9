// @vitest-environment happy-dom
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RECONNECT_NOTICE_MS, useDelayedConnecting, type LiveStatus } from "@/trpc/live-status";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const render = (initial: LiveStatus) => renderHook(({ status }) => useDelayedConnecting(status), { initialProps: { status: initial } });

describe("the live stream's reconnect notice", () => {
  it("says 'connecting' only once a reconnect has lasted the notice delay", () => {
    const hook = render("pending");
    hook.rerender({ status: "connecting" });
    act(() => vi.advanceTimersByTime(RECONNECT_NOTICE_MS - 1));
    expect(hook.result.current).toBe("pending");
    act(() => vi.advanceTimersByTime(1));
    expect(hook.result.current).toBe("connecting");
  });

  it("never says 'connecting' for a reconnect shorter than the delay (a change of topics)", () => {
    const hook = render("pending");
    hook.rerender({ status: "connecting" });
    act(() => vi.advanceTimersByTime(RECONNECT_NOTICE_MS / 2));
    hook.rerender({ status: "pending" });
    act(() => vi.advanceTimersByTime(RECONNECT_NOTICE_MS * 2));
    expect(hook.result.current).toBe("pending");
  });

  it("shows errors and recovery at once", () => {
    const hook = render("connecting");
    hook.rerender({ status: "error" });
    expect(hook.result.current).toBe("error");
    hook.rerender({ status: "pending" });
    expect(hook.result.current).toBe("pending");
  });
});
