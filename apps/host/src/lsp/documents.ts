import { hash } from "node:crypto";
import { statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { LspClient } from "./client.js";
import { languageIdOf } from "./language.js";
import type { PoolEvent } from "./pool-types.js";
import { readCapped, type Stamp } from "./source.js";

/** Why Seam closed a document on a server. */
export type CloseReason = Extract<PoolEvent, { type: "didClose" }>["reason"];

/** What a server holds for one file: Seam's copy of its identity, version and content hash. */
interface OpenDocument { uri: string; version: number; hash: string; stamp: Stamp }

/**
 * The documents open on one server process (LSP-4 revised): a document stays open while its content is
 * unchanged; changed content is sent whole (`didChange`, version + 1); deleted files, the least recently used
 * beyond the cap, and everything at idle shutdown are closed. Notifications are written in order on the
 * client's connection, so a request sent after them sees them.
 */
export interface OpenDocuments {
  readonly client: LspClient;
  readonly size: number;
  /** Makes the server hold `text` for `file`: didOpen, didChange, or nothing when the hash is unchanged; the document's URI. */
  sync(file: string, text: string, stamp: Stamp): string;
  /** Closes `file` if it is open; whether it was. */
  close(file: string, reason: CloseReason): boolean;
  closeAll(reason: CloseReason): void;
  /**
   * Checks every open document but `except` against the disk by its stamp (one stat each): changed content is
   * sent, a file that is gone or unreadable is closed.
   */
  revalidate(except: string, maxBytes: number): Promise<void>;
  isOpen(file: string): boolean;
}

export interface DocumentsOptions { serverId: string; root: string; max: number; observe(event: PoolEvent): void }

export const MAX_OPEN_DOCUMENTS = 200;

const hashOf = (text: string) => hash("sha1", text, "base64");
const statOrNull = (file: string) => {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
};
const sameStamp = (a: Stamp, b: { mtimeMs: number; size: number }) => a.mtimeMs === b.mtimeMs && a.size === b.size;

export function openDocuments(client: LspClient, opts: DocumentsOptions): OpenDocuments {
  // Map order is recency order: a use moves the document to the end.
  const docs = new Map<string, OpenDocument>();
  const base = { serverId: opts.serverId, workspace: opts.root, pid: client.pid };
  const send = (method: string, params: unknown) => {
    if (!client.closed) client.notify(method, params).catch(() => {});
  };

  const close = (file: string, reason: CloseReason) => {
    const doc = docs.get(file);
    if (!doc) return false;
    docs.delete(file);
    opts.observe({ type: "didClose", ...base, uri: doc.uri, reason });
    send("textDocument/didClose", { textDocument: { uri: doc.uri } });
    return true;
  };

  const change = (doc: OpenDocument, text: string, digest: string) => {
    doc.version++;
    doc.hash = digest;
    opts.observe({ type: "didChange", ...base, uri: doc.uri, version: doc.version });
    send("textDocument/didChange", { textDocument: { uri: doc.uri, version: doc.version }, contentChanges: [{ text }] });
  };

  return {
    client,
    get size() { return docs.size; },
    isOpen: (file) => docs.has(file),
    close,
    closeAll(reason) {
      for (const file of [...docs.keys()]) close(file, reason);
    },
    sync(file, text, stamp) {
      const digest = hashOf(text);
      const doc = docs.get(file);
      if (doc) {
        docs.delete(file);
        docs.set(file, doc);
        doc.stamp = stamp;
        if (doc.hash !== digest) change(doc, text, digest);
        return doc.uri;
      }
      const uri = pathToFileURL(file).href;
      docs.set(file, { uri, version: 1, hash: digest, stamp });
      opts.observe({ type: "didOpen", ...base, uri, version: 1 });
      send("textDocument/didOpen", { textDocument: { uri, languageId: languageIdOf(file), version: 1, text } });
      for (const oldest of docs.keys()) {
        if (docs.size <= opts.max) break;
        close(oldest, "evicted");
      }
      return uri;
    },
    async revalidate(except, maxBytes) {
      for (const [file, doc] of [...docs]) {
        if (file === except) continue;
        const now = statOrNull(file);
        if (now && sameStamp(doc.stamp, now)) continue;
        if (!now) {
          close(file, "deleted");
          continue;
        }
        try {
          const { text, stamp } = await readCapped(file, file, maxBytes);
          doc.stamp = stamp;
          const digest = hashOf(text);
          if (docs.get(file) === doc && digest !== doc.hash) change(doc, text, digest);
        } catch {
          close(file, "unreadable");
        }
      }
    },
  };
}
