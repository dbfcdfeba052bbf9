import type { LspOperation } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { LspClient } from "./client.js";
import { openDocuments, type OpenDocuments } from "./documents.js";
import type { Entry } from "./pool-process.js";
import type { PoolEvent } from "./pool-types.js";
import { askWhenReady, type Answer, type ReadinessOptions } from "./readiness.js";
import { hoverMarkdown, locationsOf } from "./results.js";
import type { Stamp } from "./source.js";

const METHODS: Record<LspOperation, { method: string; capability: string }> = {
  goToDefinition: { method: "textDocument/definition", capability: "definitionProvider" },
  findReferences: { method: "textDocument/references", capability: "referencesProvider" },
  goToImplementation: { method: "textDocument/implementation", capability: "implementationProvider" },
  hover: { method: "textDocument/hover", capability: "hoverProvider" },
};

/** A query with its source read: what one exchange with a server needs. */
export interface Loaded {
  file: string;
  source: string;
  stamp: Stamp;
  operation: LspOperation;
  line: number;
  character: number;
  /** findReferences only: list the declaration too (LSP-8). */
  includeDeclaration: boolean;
}

/** The pool's settings one exchange needs. */
export interface ExchangeOptions {
  maxOpenDocuments: number;
  maxSourceBytes: number;
  readiness: ReadinessOptions;
  observe(event: PoolEvent): void;
}

/** The entry's open documents on `client`; a new process starts with none. */
export function documentsOf(entry: Entry, client: LspClient, x: Pick<ExchangeOptions, "maxOpenDocuments" | "observe">): OpenDocuments {
  if (entry.documents?.client !== client) {
    entry.documents = openDocuments(client, { serverId: entry.serverId, root: entry.root, max: x.maxOpenDocuments, observe: x.observe });
  }
  return entry.documents;
}

/**
 * One question to one server (LSP-4 revised, LSP-8): the document is brought up to date (opened, changed or
 * left alone by its content hash; other open documents checked by their stamp), then asked once the server is
 * ready. An operation the server does not offer is refused before anything is sent.
 */
export async function exchange(entry: Entry, client: LspClient, q: Loaded, signal: AbortSignal, x: ExchangeOptions): Promise<Answer> {
  const { method, capability } = METHODS[q.operation];
  if (!client.capabilities[capability]) {
    throw new HostError("unavailable:lsp", `${q.operation} is not supported by this language server ("${entry.serverId}" does not offer ${method}). Use another operation, or grep/read_file.`, {
      reason: "operation_unsupported", operation: q.operation,
    });
  }
  const docs = documentsOf(entry, client, x);
  const uri = docs.sync(q.file, q.source, q.stamp);
  if (docs.size > 1) await docs.revalidate(q.file, x.maxSourceBytes);
  const params = {
    textDocument: { uri }, position: { line: q.line - 1, character: q.character - 1 },
    ...(q.operation === "findReferences" ? { context: { includeDeclaration: q.includeDeclaration } } : {}),
  };
  const base = { serverId: entry.serverId, workspace: entry.root, pid: client.pid, uri };
  x.observe({ type: "request", ...base, method });
  const answer = await askWhenReady({
    client, method, params, signal, options: x.readiness,
    empty: q.operation === "hover" ? (raw) => hoverMarkdown(raw) === null : (raw) => locationsOf(raw).length === 0,
    waiting: (why, ms) => x.observe({ type: "wait", ...base, why, ms }),
  });
  x.observe({ type: "response", ...base, method });
  return answer;
}
