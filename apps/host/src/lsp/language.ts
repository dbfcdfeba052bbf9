import { lastExtension } from "./registry.js";

/** LSP language identifiers for `textDocument/didOpen`, by extension; others use the bare extension. */
const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
  ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
  ".py": "python", ".pyi": "python",
  ".sh": "shellscript", ".bash": "shellscript",
  ".rs": "rust", ".go": "go", ".java": "java", ".c": "c", ".h": "c", ".cpp": "cpp", ".hpp": "cpp", ".cc": "cpp",
  ".cs": "csharp", ".rb": "ruby", ".php": "php", ".lua": "lua", ".json": "json", ".css": "css", ".html": "html",
  ".md": "markdown", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".swift": "swift", ".kt": "kotlin",
};

export function languageIdOf(filePath: string): string {
  const ext = lastExtension(filePath) ?? "";
  return LANGUAGE_IDS[ext] ?? (ext.slice(1) || "plaintext");
}
