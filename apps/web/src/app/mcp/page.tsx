import type { Metadata } from "next";
import { PageHeader } from "../_components/shell/page-header";
import { McpView } from "../_components/mcp/mcp-view";

export const metadata: Metadata = { title: "MCP servers" };

export default function McpPage() {
  return (
    <div className="scroll-thin flex-1 overflow-y-auto">
      <PageHeader
        wide
        title="MCP servers"
        description="Servers whose tools the agent can call. Seam keeps them connected, reconnects after a crash, and never stores secrets: they are read from the host environment."
      />
      <div className="mx-auto w-full max-w-5xl px-6 pb-12">
        <McpView />
      </div>
    </div>
  );
}
