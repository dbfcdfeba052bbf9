import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLedger, sha256 } from "../../src/workspace/ledger.js";

describe("read ledger (CODE-1)", () => {
  it("CODE-1: checks what a session saw against the file now, per session", async () => {
    const dir = await mkdtemp(join(tmpdir(), "seam-ledger-"));
    try {
      const file = join(dir, "a.txt");
      await writeFile(file, "one");
      const ledger = createLedger();
      expect(await ledger.check("s1", file)).toBe("file_not_read");
      ledger.record("s1", file, Buffer.from("one"));
      expect(ledger.seen("s1", file)).toBe(sha256(Buffer.from("one")));
      expect(await ledger.check("s1", file)).toBe("ok");
      expect(await ledger.check("s2", file)).toBe("file_not_read");
      await writeFile(file, "two");
      expect(await ledger.check("s1", file)).toBe("file_changed_since_read");
      expect(await ledger.check("s1", file, Buffer.from("one"))).toBe("ok");
      ledger.record("s1", file, { sha256: sha256(Buffer.from("two")) });
      expect(await ledger.check("s1", file)).toBe("ok");
      ledger.forget("s1");
      expect(await ledger.check("s1", file)).toBe("file_not_read");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("CODE-1: is bounded: least recently recorded paths and sessions go first", () => {
    const ledger = createLedger({ maxPathsPerSession: 3, maxSessions: 2 });
    for (const p of ["/a", "/b", "/c"]) ledger.record("s", p, Buffer.from(p));
    ledger.record("s", "/a", Buffer.from("/a"));
    ledger.record("s", "/d", Buffer.from("/d"));
    expect(["/a", "/b", "/c", "/d"].map((p) => ledger.seen("s", p) !== undefined)).toEqual([true, false, true, true]);
    ledger.record("t", "/x", Buffer.from("x"));
    ledger.record("u", "/x", Buffer.from("x"));
    expect(ledger.seen("s", "/a")).toBeUndefined();
    expect(ledger.seen("u", "/x")).toBeDefined();
  });
});
