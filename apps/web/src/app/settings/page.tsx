import type { Metadata } from "next";
import { PageHeader } from "../_components/shell/page-header";
import { LspSection } from "../_components/settings/lsp-section";
import { ModelSection } from "../_components/settings/model-section";
import { WebSection } from "../_components/settings/web-section";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <div className="scroll-thin flex-1 overflow-y-auto">
      <PageHeader title="Settings" description="How Seam reaches a language model, the web and language servers. More sections arrive with their capabilities." />
      <div className="mx-auto w-full max-w-3xl px-6 pb-12">
        <ModelSection />
        <WebSection />
        <LspSection />
      </div>
    </div>
  );
}
