import { ExtensionsView } from "../_components/extensions/extensions-view";
import { definePage } from "../_components/shell/page-header";

const page = definePage(ExtensionsView, { wide: true, title: "Extensions", description: "Programs the agent wrote during its sessions: every version, every run, and what you allowed. Running browser halves show here and in the session that started them." });

export const metadata = page.metadata;
export default page.Page;
