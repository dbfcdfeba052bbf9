import { describe, expect, it } from "vitest";
import { createProviderRegistry, lastExtension, normalizeExtension } from "../../src/lsp/registry.js";
import { thrown } from "../support/errors.js";

describe("provider registry (LSP-2)", () => {
  it("normalizes extensions to lowercase with a leading dot, and refuses what cannot be one", () => {
    expect(normalizeExtension("TS")).toBe(".ts");
    expect(normalizeExtension(" .Py ")).toBe(".py");
    expect(normalizeExtension("..ts")).toBeUndefined();
    expect(normalizeExtension("a b")).toBeUndefined();
    const registry = createProviderRegistry();
    registry.register({ id: "ts", extensions: ["TS", ".tsx", "ts"] });
    expect(registry.providers()).toEqual([{ id: "ts", extensions: [".ts", ".tsx"] }]);
    expect(thrown(() => registry.register({ id: "bad", extensions: ["a/b"] })).code).toBe("bad_input:lsp");
  });

  it("routes by the last lowercased extension: foo.d.ts → .ts", () => {
    const registry = createProviderRegistry();
    registry.register([{ id: "ts", extensions: [".ts"] }, { id: "dts", extensions: [".d"] }]);
    expect(lastExtension("src/foo.d.ts")).toBe(".ts");
    expect(registry.route("src/foo.d.ts")?.id).toBe("ts");
    expect(registry.route("/abs/FOO.D.TS")?.id).toBe("ts");
    expect(registry.route("x.d")?.id).toBe("dts");
    expect(registry.route("Makefile")).toBeUndefined();
    expect(registry.route(".bashrc")).toBeUndefined();
    expect(registry.route("dir.ts/file")).toBeUndefined();
    expect(registry.route("trailing.")).toBeUndefined();
  });

  it("a conflict with a registered provider publishes nothing of the new atom", () => {
    const registry = createProviderRegistry();
    registry.register({ id: "ts", extensions: [".ts", ".js"] });
    let changes = 0;
    registry.onChange(() => changes++);
    const error = thrown(() => registry.register({ id: "deno", extensions: [".mts", ".JS"] }));
    expect(error.code).toBe("conflict:lsp");
    expect(error.data).toMatchObject({ reason: "extension_conflict", extension: ".js", providers: ["ts", "deno"] });
    expect(error.message).toContain(".js");
    expect(error.message).toContain('"ts"');
    expect(error.message).toContain('"deno"');
    // .mts had no conflict, but the atom is all-or-nothing.
    expect(registry.route("a.mts")).toBeUndefined();
    expect(registry.providers().map((p) => p.id)).toEqual(["ts"]);
    expect(changes).toBe(0);
  });

  it("a conflict inside one batch publishes none of the batch", () => {
    const registry = createProviderRegistry();
    expect(registry.validate([{ id: "a", extensions: [".x"] }, { id: "b", extensions: [".y", ".x"] }])).toEqual([{ extension: ".x", providers: ["a", "b"] }]);
    expect(thrown(() => registry.register([{ id: "a", extensions: [".x"] }, { id: "b", extensions: [".y", ".x"] }])).code).toBe("conflict:lsp");
    expect(registry.providers()).toEqual([]);
    expect(registry.route("f.x")).toBeUndefined();
    expect(registry.route("f.y")).toBeUndefined();
  });

  it("refuses a second provider with the same id", () => {
    const registry = createProviderRegistry();
    registry.register({ id: "a", extensions: [".x"] });
    expect(thrown(() => registry.register({ id: "a", extensions: [".z"] })).data?.reason).toBe("duplicate_provider");
    expect(registry.route("f.z")).toBeUndefined();
  });

  it("disposing a provider removes all its routes, once, and frees its extensions", () => {
    const registry = createProviderRegistry();
    const other = registry.register({ id: "py", extensions: [".py"] });
    const dispose = registry.register({ id: "ts", extensions: [".ts", ".tsx", ".mts"] });
    let changes = 0;
    registry.onChange(() => changes++);
    void dispose();
    void dispose();
    expect(changes).toBe(1);
    for (const f of ["a.ts", "a.tsx", "a.mts"]) expect(registry.route(f)).toBeUndefined();
    expect(registry.route("a.py")?.id).toBe("py");
    registry.register({ id: "ts2", extensions: [".ts"] });
    expect(registry.route("a.ts")?.id).toBe("ts2");
    void other();
    expect(registry.providers().map((p) => p.id)).toEqual(["ts2"]);
  });
});
