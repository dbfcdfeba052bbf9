import { McpView } from "../_components/mcp/mcp-view";
import { definePage } from "../_components/shell/page-header";

const page = definePage(McpView, { wide: true, title: "MCP servers", description: "Servers whose tools the agent can call. Seam keeps them connected, reconnects after a crash, and never stores secrets: they are read from the host environment." });

export const metadata = page.metadata;
export default page.Page;
