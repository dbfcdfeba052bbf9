import type { CapabilityRow } from "@seam/shared";

/** A capability overview row: the code is here (it is answering), and it is visible while it has tools registered. */
export function capabilityRow(row: Omit<CapabilityRow, "codePresent" | "visible"> & { visible?: boolean }): CapabilityRow {
  return { ...row, codePresent: true, visible: row.visible ?? row.tools.length > 0 };
}

/** The row of a capability that needs no configuration: ready exactly while its own tools are registered. */
export function toolsRow(row: { id: string; title: string; tools: string[]; own?: string[]; ready: string; missing: string }): CapabilityRow {
  const own = row.own ?? row.tools;
  return capabilityRow({
    id: row.id, title: row.title, configured: true, visible: own.length > 0, ready: own.length > 0, note: own.length > 0 ? row.ready : row.missing, tools: row.tools,
  });
}
