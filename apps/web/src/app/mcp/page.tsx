import { McpView } from "../_components/mcp/mcp-view";
import { definePage } from "../_components/shell/page-header";

const page = definePage(McpView, { wide: true, title: "MCP servers", description: "Servers whose tools the agent can call. Seam keeps them connected, reconnects after a crash, and keeps secrets out of its database: they are read from the host environment, and OAuth sign-ins live only in the 0600 secrets file." });

export const metadata = page.metadata;
export default page.Page;
