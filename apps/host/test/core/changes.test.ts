import { describe, expect, it } from "vitest";
import { createChanges } from "../../src/core/changes.js";

describe("createChanges", () => {
  it("yields the state now, then one snapshot per burst of changes", async () => {
    let state = 0;
    const changes = createChanges(() => state, { throttleMs: 20 });
    const stream = changes.snapshots(new AbortController().signal);
    expect((await stream.next()).value).toBe(0);
    const next = stream.next();
    for (let i = 0; i < 5; i++) {
      state++;
      changes.changed();
    }
    expect((await next).value).toBe(5);
    changes.close();
    expect((await stream.next()).done).toBe(true);
  });

  it("ends on abort and calls listeners, isolating a failing one", async () => {
    const errors: unknown[] = [];
    const changes = createChanges(() => "x", { onListenerError: (e) => errors.push(e) });
    let calls = 0;
    changes.on(() => { throw new Error("broken listener"); });
    const off = changes.on(() => calls++);
    changes.changed();
    off();
    changes.changed();
    expect(calls).toBe(1);
    expect(errors).toHaveLength(2);
    const abort = new AbortController();
    const stream = changes.snapshots(abort.signal);
    await stream.next();
    const pending = stream.next();
    abort.abort();
    expect((await pending).done).toBe(true);
  });
});
