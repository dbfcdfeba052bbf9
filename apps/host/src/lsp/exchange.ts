import { pathToFileURL } from "node:url";
import type { LspOperation } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { LspClient } from "./client.js";
import { languageIdOf } from "./language.js";
import type { Entry } from "./pool-process.js";
import type { PoolEvent } from "./pool-types.js";

const METHODS: Record<LspOperation, { method: string; capability: string }> = {
  goToDefinition: { method: "textDocument/definition", capability: "definitionProvider" },
  findReferences: { method: "textDocument/references", capability: "referencesProvider" },
  goToImplementation: { method: "textDocument/implementation", capability: "implementationProvider" },
  hover: { method: "textDocument/hover", capability: "hoverProvider" },
};

/** A query with its source read: what one exchange with a server needs. */
export interface Loaded { file: string; source: string; operation: LspOperation; line: number; character: number }

/**
 * didOpen → request → didClose on one server (LSP-4): the document is open only for the query, and
 * an operation the server does not offer is refused before anything is sent.
 */
export async function exchange(entry: Entry, client: LspClient, q: Loaded, signal: AbortSignal, observe: (event: PoolEvent) => void): Promise<unknown> {
  const { method, capability } = METHODS[q.operation];
  if (!client.capabilities[capability]) {
    throw new HostError("unavailable:lsp", `${q.operation} is not supported by this language server ("${entry.serverId}" does not offer ${method}). Use another operation, or grep/read_file.`, {
      reason: "operation_unsupported", operation: q.operation,
    });
  }
  const uri = pathToFileURL(q.file).href;
  const base = { serverId: entry.serverId, workspace: entry.root, pid: client.pid, uri };
  observe({ type: "didOpen", ...base });
  // The connection writes in order, so the request can follow didOpen without waiting for its write.
  const opened = client.notify("textDocument/didOpen", { textDocument: { uri, languageId: languageIdOf(q.file), version: ++entry.versions, text: q.source } });
  opened.catch(() => {});
  try {
    const params = { textDocument: { uri }, position: { line: q.line - 1, character: q.character - 1 }, ...(q.operation === "findReferences" ? { context: { includeDeclaration: true } } : {}) };
    observe({ type: "request", ...base, method });
    const [, result] = await Promise.all([opened, client.request<unknown>(method, params, signal)]);
    observe({ type: "response", ...base, method });
    return result;
  } finally {
    if (!client.closed) {
      observe({ type: "didClose", ...base });
      // Queued behind the request on the same writer: the next query's didOpen cannot overtake it.
      client.notify("textDocument/didClose", { textDocument: { uri } }).catch(() => {});
    }
  }
}
