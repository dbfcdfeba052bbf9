import type { Metadata } from "next";
import { PageLayout } from "../_components/shell/page-header";
import { CapabilitiesTable } from "../_components/capabilities/capabilities-table";
import { ProcessesTable } from "../_components/capabilities/processes-table";

export const metadata: Metadata = { title: "Capabilities" };

export default function CapabilitiesPage() {
  return (
    <PageLayout
      wide
      title="Capabilities"
      description="For each capability: is the code there, is a provider configured, can the agent see its tools, and does it work right now."
    >
      <CapabilitiesTable />
      <h2 className="mt-10 mb-1 text-[15px] font-semibold">Processes</h2>
      <p className="mb-3 text-[13px] text-muted-foreground">
        Child processes the host started, each in its own process group with a sanitized environment; the last few that
        exited stay listed so a crash can be read.
      </p>
      <ProcessesTable />
    </PageLayout>
  );
}
