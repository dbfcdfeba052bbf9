import { deserializeMessage, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { messageOf } from "../core/errors.js";

/** The longest line a stdio server may write (one JSON-RPC message): 64 MiB, like the SDK's own reader. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type Line = { message: JSONRPCMessage } | { error: string };

/**
 * Newline-delimited JSON-RPC from a stdio server (MCP-7). Unlike the SDK's reader, a line that is not JSON-RPC
 * (a server printing logs to stdout) is reported rather than skipped, so the user can see why a server misbehaves;
 * reading goes on with the next line. A line past `maxBytes` cannot be resynchronized: `push` throws.
 */
export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxBytes = MAX_LINE_BYTES) {}

  push(chunk: Buffer): Line[] {
    const out: Line[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      const line = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
      const text = line.toString("utf8").replace(/\r$/, "");
      if (text.trim()) out.push(parse(text));
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) {
        this.pending = [];
        this.pendingBytes = 0;
        throw new Error(`a line is longer than ${this.maxBytes} bytes`);
      }
      this.pending.push(chunk.subarray(start));
    }
    return out;
  }
}

function parse(text: string): Line {
  try {
    return { message: deserializeMessage(text) };
  } catch (error) {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return { error: `${messageOf(error)} in ${JSON.stringify(shown)}` };
  }
}
