import { createRequire } from "node:module";
import { basename } from "node:path";
import type { LspPreset, LspServerConfig } from "@seam/shared";
import { resolveCommand } from "./command.js";

const require = createRequire(import.meta.url);

interface PresetDef {
  id: string;
  label: string;
  config: () => LspServerConfig;
  hint: string;
  /** File names (of the command or of its first argument) the hint applies to. */
  names: string[];
}

const resolves = (specifier: string): string | null => {
  try {
    return require.resolve(specifier);
  } catch {
    return null;
  }
};

const base = { enabled: true, idleTimeoutMs: 600_000 } as const;
const TS_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

const PRESETS: PresetDef[] = [
  {
    id: "typescript",
    label: "TypeScript / JavaScript",
    /**
     * The bundled typescript-language-server under the host's own Node, with the TypeScript 5 tsserver
     * (the workspace's `typescript` is TypeScript 7, which has no tsserver). Without the bundled copy, a
     * `typescript-language-server` on PATH.
     */
    config: () => {
      const cli = resolves("typescript-language-server/lib/cli.mjs");
      const tsserver = resolves("typescript5/lib/tsserver.js");
      const label = "TypeScript / JavaScript";
      if (!cli || !tsserver) return { ...base, id: "typescript", label, command: "typescript-language-server", args: ["--stdio"], extensions: TS_EXTENSIONS };
      return {
        ...base, id: "typescript", label, command: process.execPath, args: [cli, "--stdio"], extensions: TS_EXTENSIONS,
        initializationOptions: { tsserver: { path: tsserver, useSyntaxServer: "never" } },
      };
    },
    hint: "typescript-language-server ships with the Seam host: reinstall the host's dependencies (npm install), or install it yourself with npm i -g typescript-language-server typescript.",
    names: ["typescript-language-server", "cli.mjs"],
  },
  {
    id: "python",
    label: "Python (pyright)",
    config: () => ({ ...base, id: "python", label: "Python (pyright)", command: "pyright-langserver", args: ["--stdio"], extensions: [".py", ".pyi"] }),
    hint: "Install pyright with npm i -g pyright (or pip install pyright) so that pyright-langserver is on PATH.",
    names: ["pyright-langserver", "pyright", "langserver.index.js"],
  },
  {
    id: "bash",
    label: "Bash (bash-language-server)",
    /** Seam reads no diagnostics, so ShellCheck linting on every open file is switched off (its `bashIde` section, LSP-8). */
    config: () => ({
      ...base, id: "bash", label: "Bash (bash-language-server)", command: "bash-language-server", args: ["start"], extensions: [".sh", ".bash"],
      settings: { bashIde: { shellcheckPath: "" } },
    }),
    hint: "Install it with npm i -g bash-language-server so that bash-language-server is on PATH.",
    names: ["bash-language-server"],
  },
];

/** The presets with `available` computed now (LSP-7). */
export function presets(env: NodeJS.ProcessEnv = process.env, binDirs?: string[]): LspPreset[] {
  return PRESETS.map((p) => {
    const config = p.config();
    const available = resolveCommand(config.command, env, binDirs) !== null;
    return { id: p.id, label: p.label, config, available, hint: available ? null : p.hint };
  });
}

/** The configuration of a fresh install: the TypeScript/JavaScript preset, enabled. */
export function defaultServers(): LspServerConfig[] {
  return [PRESETS[0]!.config()];
}

/** How to install what `command args` runs, when a preset knows it; a generic hint otherwise. */
export function installHint(command: string, args: readonly string[] = []): string {
  const names = new Set([command, ...args.slice(0, 1)].map((p) => basename(p)));
  return PRESETS.find((p) => p.names.some((n) => names.has(n)))?.hint
    ?? "Install the language server, or give the full path to its executable.";
}
