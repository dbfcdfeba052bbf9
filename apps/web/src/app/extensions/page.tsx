import type { Metadata } from "next";
import { ExtensionsView } from "../_components/extensions/extensions-view";
import { PageHeader } from "../_components/shell/page-header";

export const metadata: Metadata = { title: "Extensions" };

export default function ExtensionsPage() {
  return (
    <div className="scroll-thin flex-1 overflow-y-auto">
      <PageHeader
        wide
        title="Extensions"
        description="Programs the agent wrote during its sessions: every version, every run, and what you allowed. Running browser halves show here and in the session that started them."
      />
      <div className="mx-auto w-full max-w-5xl px-6 pb-12">
        <ExtensionsView />
      </div>
    </div>
  );
}
