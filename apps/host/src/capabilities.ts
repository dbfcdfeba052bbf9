import type { CapabilityRow } from "@seam/shared";

/** A capability's overview row, computed when asked: code present / configured / visible to the agent / ready now, with the reason. */
export type StatusSource = () => CapabilityRow | Promise<CapabilityRow>;

/** What the tRPC layer calls (`HostApi["capabilities"]`): one row per capability, in the order given. */
export interface CapabilitiesApi { list(): Promise<CapabilityRow[]> }

/** Asks each capability for its own row; the overview knows no capability's internals. */
export function capabilityOverview(sources: StatusSource[]): CapabilitiesApi {
  return { list: () => Promise.all(sources.map((status) => status())) };
}
