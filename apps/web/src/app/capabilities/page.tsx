import type { Metadata } from "next";
import { PageHeader } from "../_components/shell/page-header";
import { CapabilitiesTable } from "../_components/capabilities/capabilities-table";
import { ProcessesTable } from "../_components/capabilities/processes-table";

export const metadata: Metadata = { title: "Capabilities" };

export default function CapabilitiesPage() {
  return (
    <div className="scroll-thin flex-1 overflow-y-auto">
      <PageHeader
        wide
        title="Capabilities"
        description="For each capability: is the code there, is a provider configured, can the agent see its tools, and does it work right now."
      />
      <div className="mx-auto w-full max-w-5xl px-6 pb-12">
        <CapabilitiesTable />
        <h2 className="mt-10 mb-1 text-[15px] font-semibold">Processes</h2>
        <p className="mb-3 text-[13px] text-muted-foreground">
          Child processes the host started, each in its own process group with a sanitized environment; the last few that
          exited stay listed so a crash can be read.
        </p>
        <ProcessesTable />
      </div>
    </div>
  );
}
