import { SkillsView } from "../_components/skills/skills-view";
import { definePage } from "../_components/shell/page-header";

const page = definePage(SkillsView, { wide: true, title: "Skills", description: "Trusted instructions the agent loads when a task matches. The model sees only names and descriptions until it picks one; you can run a skill yourself with /name in the composer." });

export const metadata = page.metadata;
export default page.Page;
