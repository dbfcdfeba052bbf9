import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveInside } from "../../src/workspace/contain.js";
import { workspaceFixture } from "./fixture.js";
import { rejection } from "../support/errors.js";

describe("resolveInside (SEC-3)", () => {
  it("resolves relative and inside-absolute paths to real paths", async () => {
    await using f = await workspaceFixture();
    const file = await f.write("src/a.ts", "x");
    expect(await resolveInside(f.ws, "src/a.ts")).toBe(file);
    expect(await resolveInside(f.ws, "./src/../src/a.ts")).toBe(file);
    expect(await resolveInside(f.ws, file)).toBe(file);
    expect(await resolveInside(f.ws, ".")).toBe(f.ws);
  });

  it.each(["../outside/secret.txt", "src/../../outside/secret.txt", "..", "../outside/missing.txt"])("refuses the escape %s", async (path) => {
    await using f = await workspaceFixture();
    await f.write("src/a.ts", "x");
    const error = await rejection(resolveInside(f.ws, path));
    expect(error.code).toBe("denied:workspace");
    expect(error.data?.reason).toBe("outside_workspace");
    expect(error.message).toContain(path);
  });

  it("refuses an absolute path outside the workspace", async () => {
    await using f = await workspaceFixture();
    const error = await rejection(resolveInside(f.ws, join(f.outside, "secret.txt")));
    expect(error.data?.reason).toBe("outside_workspace");
    expect((await rejection(resolveInside(f.ws, "/etc/passwd"))).data?.reason).toBe("outside_workspace");
  });

  it("refuses symlinks to a file or a directory outside, and paths through them", async () => {
    await using f = await workspaceFixture();
    await f.link("secret-link", join(f.outside, "secret.txt"));
    await f.link("out-dir", f.outside);
    for (const path of ["secret-link", "out-dir", "out-dir/secret.txt", "out-dir/missing.txt"]) {
      expect((await rejection(resolveInside(f.ws, path))).data?.reason, path).toBe("outside_workspace");
    }
  });

  it("allows symlinks that stay inside, and a workspace that is itself reached through a symlink", async () => {
    await using f = await workspaceFixture();
    const file = await f.write("src/a.ts", "x");
    await f.link("alias.ts", "src/a.ts");
    await f.link("srcdir", join(f.ws, "src"));
    expect(await resolveInside(f.ws, "alias.ts")).toBe(file);
    expect(await resolveInside(f.ws, "srcdir/a.ts")).toBe(file);
    const wsAlias = join(f.outside, "ws-alias");
    await symlink(f.ws, wsAlias);
    expect(await resolveInside(wsAlias, "src/a.ts")).toBe(file);
    expect(await resolveInside(wsAlias, join(wsAlias, "src/a.ts"))).toBe(file);
  });

  it("says not_found for a missing path inside", async () => {
    await using f = await workspaceFixture();
    const error = await rejection(resolveInside(f.ws, "nope/missing.ts"));
    expect(error.code).toBe("not_found:workspace");
    expect(error.data?.reason).toBe("not_found");
    expect(error.message).toContain("nope/missing.ts");
  });
});
