import { createHash } from "node:crypto";

/** The longest tool name model providers accept. */
export const MAX_PUBLIC_NAME_LENGTH = 64;
const HASH_LENGTH = 12;
/** Per character (code point), so an emoji becomes one `_`, not two. */
const INVALID = /[^A-Za-z0-9_-]/gu;

/**
 * The model-facing name of an MCP tool (MCP-2): `mcp__<server>__<raw>`, a pure function of the pair.
 * When a character had to be replaced or the name is too long, the name is cut and suffixed with a hash
 * of the unmodified identity, so two different tools never fold into one name and reconnects never
 * rename anything.
 */
export function publicToolName(serverName: string, rawName: string): string {
  const joined = `mcp__${serverName}__${rawName}`;
  const normalized = joined.replace(INVALID, "_");
  if (normalized === joined && normalized.length <= MAX_PUBLIC_NAME_LENGTH) return normalized;
  const hash = createHash("sha256").update(`${serverName}\0${rawName}`).digest("hex").slice(0, HASH_LENGTH);
  // After normalization the name is ASCII, so slicing by code unit cuts whole characters.
  return `${normalized.slice(0, MAX_PUBLIC_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}
