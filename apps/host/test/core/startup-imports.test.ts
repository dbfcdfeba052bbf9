import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript5";
import { describe, expect, it } from "vitest";

/**
 * #17 item 1: the host's path to readiness loads only what answering the first request needs. Heavy
 * packages load on first use (a dynamic `import()` or a lazy `require`), so none of them may be reachable
 * from `src/main.ts` through static imports. The walk follows what the compiled JavaScript imports: each
 * file is transpiled (type-only imports disappear, as they do in `dist/`) and its static `import` /
 * `export … from` specifiers are followed.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Loaded on first need, never at start (what each one is for, and roughly what it costs at start-up). */
const LAZY: Record<string, string> = {
  "@modelcontextprotocol/client": "the MCP SDK (with the first server or probe)",
  "@modelcontextprotocol/core": "the MCP SDK (with the first server or probe)",
  "@modelcontextprotocol/sdk": "the MCP SDK v1",
  ajv: "MCP tool schemas",
  pg: "PostgreSQL only",
  "@prisma/adapter-pg": "PostgreSQL only",
  ai: "the AI SDK (warm-up, then the first turn)",
  "@ai-sdk/anthropic": "a model adapter",
  "@ai-sdk/openai-compatible": "a model adapter",
  "gpt-tokenizer": "the tokenizer (warm-up)",
  "vscode-jsonrpc": "the first language server",
  "typescript-language-server": "the first language server",
  mdream: "web_fetch's HTML conversion (WebAssembly)",
  entities: "web_fetch's HTML pre-pass",
  "js-yaml": "the first skill parsed",
  diff: "the first edit",
  chokidar: "the first watched skills root",
  "web-tree-sitter": "the bash grammar (first command checked)",
  "@prisma/schema-engine-wasm": "migrations that are not up to date (in a worker)",
};

const packageOf = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);

function staticImports(file: string): string[] {
  const js = ts.transpileModule(readFileSync(file, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const specs: string[] = [];
  for (const m of js.matchAll(/^\s*(?:import|export)\s+(?:[^;'"]*?\s+from\s+)?["']([^"']+)["']/gm)) specs.push(m[1]!);
  return specs;
}

function resolveLocal(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts"), base]) {
    if (existsSync(candidate) && candidate.endsWith(".ts")) return candidate;
  }
  throw new Error(`cannot resolve ${spec} from ${relative(SRC, from)}`);
}

/** Every package reachable from `entry` by static imports, with the chain of files that reaches it first. */
function reachable(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const parent = new Map<string, string | null>([[entry, null]]);
  const chain = (file: string) => {
    const out: string[] = [];
    for (let f: string | null = file; f; f = parent.get(f) ?? null) out.push(relative(SRC, f));
    return out;
  };
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const spec of staticImports(file)) {
      if (spec.startsWith(".")) {
        const next = resolveLocal(file, spec);
        if (!parent.has(next)) {
          parent.set(next, file);
          queue.push(next);
        }
      } else if (!spec.startsWith("node:")) {
        const name = packageOf(spec);
        if (!packages.has(name)) packages.set(name, chain(file));
      }
    }
  }
  return packages;
}

describe("start-up imports (#17 item 1)", () => {
  it("reaches none of the lazily loaded packages from main.ts", () => {
    const found = reachable(join(SRC, "main.ts"));
    const offending = [...found].filter(([name]) => name in LAZY).map(([name, via]) => `${name} (${LAZY[name]}) via ${via.join(" <- ")}`);
    expect(offending).toEqual([]);
    // The walk does see the packages the start does need (so an empty list above means something).
    expect([...found.keys()]).toEqual(expect.arrayContaining(["zod", "@trpc/server", "@prisma/client", "better-sqlite3"]));
  });

  it("sees a lazy package when a module imports it statically", () => {
    // The MCP connection module imports the SDK; it is reachable only through dynamic imports from main.ts.
    expect([...reachable(join(SRC, "mcp/connection.ts")).keys()]).toContain("@modelcontextprotocol/client");
    expect([...reachable(join(SRC, "cluster/cluster.ts")).keys()]).toContain("pg");
  });
});
