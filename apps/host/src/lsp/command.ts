import { accessSync, constants, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The host package directory (apps/host), from src/lsp or dist/lsp alike. */
const HOST_DIR = fileURLToPath(new URL("../../", import.meta.url));

/** `node_modules/.bin` of the host package and each of its ancestors (the workspace root holds hoisted bins). */
export function hostBinDirs(from: string = HOST_DIR): string[] {
  const out: string[] = [];
  for (let dir = from; ; dir = dirname(dir)) {
    out.push(join(dir, "node_modules", ".bin"));
    if (dirname(dir) === dir) return out;
  }
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The executable `command` names, or null: an absolute path must be an executable file; a bare name
 * is looked up on PATH, then in the host's `node_modules/.bin` directories. Relative paths with a
 * directory part are refused (they would depend on the host's working directory).
 */
export function resolveCommand(command: string, env: NodeJS.ProcessEnv = process.env, binDirs: string[] = hostBinDirs()): string | null {
  if (isAbsolute(command)) return executable(command) ? command : null;
  if (command.includes("/") || command.includes("\\")) return null;
  const path = (env.PATH ?? "").split(delimiter).filter((d) => d && isAbsolute(d));
  for (const dir of [...path, ...binDirs]) {
    const candidate = join(dir, command);
    if (executable(candidate)) return candidate;
  }
  return null;
}
