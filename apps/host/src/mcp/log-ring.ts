import { MCP_LOG_LEVELS, MCP_LOG_RING, type McpLogEntry, type McpLogLevel } from "@seam/shared";

/** Longest text kept of one log message. */
export const MCP_LOG_TEXT_MAX = 8_192;

const rank = (level: McpLogLevel) => MCP_LOG_LEVELS.indexOf(level);

/** `data` of a `notifications/message` as text: strings as they are, anything else as JSON; cut at 8 KiB. */
export function logText(data: unknown): string {
  let text: string;
  if (typeof data === "string") text = data;
  else {
    try {
      text = JSON.stringify(data) ?? String(data);
    } catch {
      text = String(data);
    }
  }
  return text.length > MCP_LOG_TEXT_MAX ? `${text.slice(0, MCP_LOG_TEXT_MAX)}… (cut: ${text.length} characters)` : text;
}

/** One server's last `capacity` log entries (MCP-12), oldest first. */
export class LogRing {
  private entries: McpLogEntry[] = [];
  private seq = 0;
  constructor(private readonly capacity = MCP_LOG_RING, private readonly now: () => Date = () => new Date()) {}

  push(message: { level: McpLogLevel; logger: string | null; data: unknown }): McpLogEntry {
    const entry: McpLogEntry = { seq: ++this.seq, time: this.now().toISOString(), level: message.level, logger: message.logger, text: logText(message.data) };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return entry;
  }

  /** Entries at `minLevel` or more severe, oldest first. */
  list(minLevel: McpLogLevel = "debug"): McpLogEntry[] {
    const min = rank(minLevel);
    return this.entries.filter((e) => rank(e.level) >= min);
  }

  get size() {
    return this.entries.length;
  }
}
