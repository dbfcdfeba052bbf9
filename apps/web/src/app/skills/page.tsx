import type { Metadata } from "next";
import { PageHeader } from "../_components/shell/page-header";
import { SkillsView } from "../_components/skills/skills-view";

export const metadata: Metadata = { title: "Skills" };

export default function SkillsPage() {
  return (
    <div className="scroll-thin flex-1 overflow-y-auto">
      <PageHeader
        wide
        title="Skills"
        description="Trusted instructions the agent loads when a task matches. The model sees only names and descriptions until it picks one; you can run a skill yourself with /name in the composer."
      />
      <div className="mx-auto w-full max-w-5xl px-6 pb-12">
        <SkillsView />
      </div>
    </div>
  );
}
