import { PermissionsView } from "../_components/permissions/permissions-view";
import { definePage } from "../_components/shell/page-header";

const page = definePage(PermissionsView, {
  wide: true,
  title: "Permissions",
  description: "What the agent may do without asking: the default mode, rules on tools and their arguments, and a log of every decision.",
});

export const metadata = page.metadata;
export default page.Page;
