import { describe, expect, it } from "vitest";
import { createStartupTrace, traceStartupWanted } from "../../src/core/startup-trace.js";

describe("start-up trace (#17)", () => {
  it("records marks since the previous phase and phases by their own duration, in order", async () => {
    let t = 0;
    const trace = createStartupTrace(() => t);
    t = 100;
    trace.mark("imports");
    t = 130;
    const value = await trace.phase("database", () => {
      t = 180;
      return 42;
    });
    expect(value).toBe(42);
    await expect(trace.phase("broken", () => { t = 190; throw new Error("boom"); })).rejects.toThrow("boom");
    expect(trace.phases()).toEqual([
      { name: "imports", ms: 100, at: 100 },
      { name: "database", ms: 50, at: 180 },
      { name: "broken", ms: 10, at: 190 },
    ]);
    expect(trace.format().split("\n")).toHaveLength(3);
    expect(trace.format()).toMatch(/\[startup\] database\s+50\.0 ms {2}\(at 180\.0 ms\)/);
  });

  it("prints only when SEAM_TRACE_STARTUP asks for it", () => {
    expect(traceStartupWanted({ SEAM_TRACE_STARTUP: "1" })).toBe(true);
    expect(traceStartupWanted({ SEAM_TRACE_STARTUP: "true" })).toBe(true);
    expect(traceStartupWanted({})).toBe(false);
    expect(traceStartupWanted({ SEAM_TRACE_STARTUP: "0" })).toBe(false);
  });
});
