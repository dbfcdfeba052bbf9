import { open, realpath } from "node:fs/promises";
import { join } from "node:path";
import { HostError } from "../core/errors.js";
import { hasNulPrefix } from "../workspace/files.js";
import { isInside } from "../workspace/contain.js";
import { escapeXml } from "./render.js";

/** How much of one resource file the skill tool returns. */
export const RESOURCE_MAX_BYTES = 256 * 1024;

const denied = (file: string) =>
  new HostError("denied:skills", `"${file}" is not inside the skill's resource base; use a path relative to it, as the instructions give it.`, { reason: "outside_resource_base" });

/**
 * Reads one file of a skill's bundle (SKL-7 resources), contained in its resource base with symlinks
 * resolved (SEC-3). Skill roots may lie outside the session workspace, where read_file cannot reach.
 */
export async function readSkillResource(base: string, file: string): Promise<{ path: string; content: string; truncated: boolean }> {
  const root = await realpath(base);
  const target = await realpath(join(root, file)).catch(() => {
    throw new HostError("not_found:skills", `The skill has no file "${file}". Check the path the instructions give.`, { reason: "resource_not_found" });
  });
  if (!isInside(root, target) || target === root) throw denied(file);
  const handle = await open(target, "r");
  try {
    if (!(await handle.stat()).isFile()) throw new HostError("bad_input:skills", `"${file}" is not a file.`, { reason: "not_a_file" });
    const buffer = Buffer.alloc(RESOURCE_MAX_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, Math.min(bytesRead, RESOURCE_MAX_BYTES));
    if (hasNulPrefix(bytes)) throw new HostError("bad_input:skills", `"${file}" is a binary file; only text resources can be read.`, { reason: "binary_file" });
    return { path: target.slice(root.length + 1), content: bytes.toString("utf8"), truncated: bytesRead > RESOURCE_MAX_BYTES };
  } finally {
    await handle.close();
  }
}

export function renderSkillResource(skill: string, r: { path: string; content: string; truncated: boolean }): string {
  const note = r.truncated ? `\n[Only the first ${RESOURCE_MAX_BYTES / 1024} KiB of this file are shown.]` : "";
  return `<skill_file skill="${escapeXml(skill)}" path="${escapeXml(r.path)}">\n${r.content}${r.content.endsWith("\n") ? "" : "\n"}</skill_file>${note}`;
}
