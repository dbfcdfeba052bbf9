import { readFileSync } from "node:fs";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { apiDocs, parseApiDeclarations, type ApiDeclaration } from "../../src/extensions/docs.js";
import { setup } from "./helpers.js";

const declarations = (file: string) =>
  parseApiDeclarations(readFileSync(new URL(`../../src/extensions/api/${file}`, import.meta.url), "utf8"), file);

/** Runs in a real host half: every own member of `api`, recursively, and the realm's own globals. */
const PROBE = `
const members = [];
const walk = (obj, path) => {
  for (const key of Reflect.ownKeys(obj)) {
    const value = obj[key];
    const p = path + "." + String(key);
    const kind = typeof value === "function" ? "function" : value !== null && typeof value === "object" ? "object" : typeof value;
    members.push({ path: p, kind, arity: kind === "function" ? value.length : null, frozen: Object.isFrozen(value) });
    if (kind === "object") walk(value, p);
  }
};
walk(api, "api");
const globals = Object.getOwnPropertyNames(globalThis);
api.tools.register({ name: "api_shape" }, () => ({ members, globals, frozen: Object.isFrozen(api) }));
`;

interface Shape {
  members: { path: string; kind: string; arity: number | null; frozen: boolean }[];
  globals: string[];
  frozen: boolean;
}

/** The arities a runtime function may have for a declaration: JS `length` stops at the first rest (or default) parameter. */
const arityRange = (d: ApiDeclaration) => {
  const plain = d.params!.filter((p) => !p.rest);
  return { min: plain.filter((p) => !p.optional).length, max: plain.length };
};

describe("extension API docs (EXT-1)", () => {
  it("host-half.d.ts declares exactly the members the runtime api has, with matching arities", async () => {
    const half = await setup().start(PROBE);
    const shape = (await half.call("api_shape", {})) as Shape;
    const declared = declarations("host-half.d.ts").members;

    // Both directions: nothing undocumented, nothing documented that does not exist.
    expect(declared.map((d) => d.path).sort()).toEqual(shape.members.map((m) => m.path).sort());
    for (const d of declared) {
      const actual = shape.members.find((m) => m.path === d.path)!;
      expect({ path: d.path, kind: actual.kind }).toEqual({ path: d.path, kind: d.params ? "function" : "object" });
      if (!d.params) continue;
      const { min, max } = arityRange(d);
      expect(actual.arity, `${d.path}: declared ${min}..${max} parameters, runtime length ${actual.arity}`).toBeGreaterThanOrEqual(min);
      expect(actual.arity, d.path).toBeLessThanOrEqual(max);
    }
    expect(shape.frozen).toBe(true);
    expect(shape.members.filter((m) => m.kind === "object" && !m.frozen)).toEqual([]);

    // `api` is the extension's only global beyond the language's own (console is removed).
    const builtins = new Set(vm.runInNewContext("Object.getOwnPropertyNames(globalThis)") as string[]);
    expect(shape.globals.filter((g) => !builtins.has(g))).toEqual(["api"]);
    expect(shape.globals).not.toContain("console");
  });

  it("documents every member with a signature and a non-empty doc", () => {
    const docs = apiDocs();
    expect(docs.host.length).toBeGreaterThan(0);
    for (const m of [...docs.host, ...docs.browser]) {
      expect(m.doc.trim(), m.path).not.toBe("");
      expect(m.signature.includes(m.path), m.path).toBe(true);
    }
    expect(docs.host.find((m) => m.path === "api.tools.register")?.signature)
      .toBe("api.tools.register(def: ToolDefinition, handler: (args: JsonObject) => Json | Promise<Json>): Disposer | null");
    expect(docs.host.find((m) => m.path === "api.setTimeout")?.doc).toMatch(/100 timers/);
  });

  it("the browser half's bridge is seam.root, seam.call and seam.onMessage", () => {
    const docs = apiDocs();
    expect(docs.browser.map((m) => m.signature)).toEqual([
      "readonly seam.root: HTMLElement",
      "seam.call(method: string, params?: Json): Promise<Json>",
      "seam.onMessage(fn: (message: Json) => void): Disposer",
    ]);
    expect(docs.browserText).toMatch(/sandbox="allow-scripts"/);
    expect(docs.browserText).toMatch(/type Json = /);
  });

  it("renders the texts from the declarations and caches them", () => {
    const docs = apiDocs();
    expect(apiDocs()).toBe(docs);
    for (const m of docs.host) expect(docs.hostText).toContain(`${m.signature};`);
    expect(docs.hostText).toMatch(/^\/\*\*\n \* The host half's only global/);
    expect(docs.hostText).toContain("interface ToolDefinition {\n  /** 1–64 letters");
    expect(docs.hostText).not.toContain("interface ExtensionTools"); // namespaces are listed as members
    expect(docs.host).toEqual(declarations("host-half.d.ts").members.map(({ path, signature, doc }) => ({ path, signature, doc })));
  });

  it("refuses declarations outside the format, naming the line", () => {
    const ok = "/** root */\ndeclare const x: X;\n/** X */\ninterface X {\n  /** a */\n  a(n: number): void;\n}\nexport {};\n";
    expect(parseApiDeclarations(ok).members).toEqual([{ path: "x.a", signature: "x.a(n: number): void", doc: "a", params: [{ name: "n", type: "number", optional: false, rest: false }] }]);
    expect(() => parseApiDeclarations(ok.replace("  /** a */\n", ""), "t.d.ts")).toThrow(/t\.d\.ts: line 5: missing \/\*\* doc comment/);
    expect(() => parseApiDeclarations(`${ok}function f(): void;\n`)).toThrow(/line 9: unexpected "function f/);
    expect(() => parseApiDeclarations(ok.replace("declare const x: X;", "declare const x: Y;"))).toThrow(/not an interface/);
    expect(() => parseApiDeclarations(ok.replace("a(n: number): void;", "a(n: number): void;\n  /** b */\n  a(): void;"))).toThrow(/declared twice/);
    // Maintainer comments are not docs, and a doc comment must sit right before its declaration.
    expect(() => parseApiDeclarations(ok.replace("/** a */", "// a"))).toThrow(/missing/);
  });
});
