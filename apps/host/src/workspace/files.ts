import { open, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import { HostError } from "../core/errors.js";

export const BINARY_SNIFF_BYTES = 8 * 1024;
/** Rendered output stays under the runtime's default 100,000-character cap, so closing notes survive. */
export const RENDER_BUDGET_CHARS = 90_000;

/** How many of `lines` fit in `budget` characters (joined with "\n"). */
export function linesWithin(lines: string[], budget: number = RENDER_BUDGET_CHARS): number {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += lines[i]!.length + 1;
    if (used > budget) return i;
  }
  return lines.length;
}

/** A NUL byte in the first 8 KiB marks a file as binary (the heuristic git and grep use). */
export const hasNulPrefix = (bytes: Uint8Array) => bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);

export async function looksBinary(path: string): Promise<boolean> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return hasNulPrefix(buffer.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

export async function statOf(path: string, shown: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (error) {
    throw new HostError("not_found:workspace", `${shown} does not exist in the workspace.`, { reason: "not_found" }, { cause: error });
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

export function abortedError(): HostError {
  return new HostError("closed:workspace", "The call was cancelled.", { reason: "cancelled" });
}
