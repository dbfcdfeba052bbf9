import type { Metadata } from "next";
import { PageLayout } from "../_components/shell/page-header";
import { LspSection } from "../_components/settings/lsp-section";
import { ModelSection } from "../_components/settings/model-section";
import { ShellSection } from "../_components/settings/shell-section";
import { WebSection } from "../_components/settings/web-section";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <PageLayout title="Settings" description="How Seam reaches a language model, the web and language servers, and where shell commands run. More sections arrive with their capabilities.">
      <ModelSection />
      <WebSection />
      <LspSection />
      <ShellSection />
    </PageLayout>
  );
}
