import type { Metadata } from "next";
import type { ComponentType, ReactNode } from "react";
import { cn } from "@/lib/utils";

export function PageHeader({ title, description, wide }: { title: string; description?: string; wide?: boolean }) {
  return (
    <div className={cn("mx-auto w-full px-6 pt-8 pb-6", wide ? "max-w-5xl" : "max-w-3xl")}>
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      {description && <p className="mt-1 text-[14px] leading-relaxed text-muted-foreground">{description}</p>}
    </div>
  );
}

/** A top-level page: it scrolls on its own, under a header, in a centred column (wide for tables). */
export function PageLayout({ title, description, wide, children }: { title: string; description?: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className="scroll-thin flex-1 overflow-y-auto">
      <PageHeader title={title} description={description} wide={wide} />
      <div className={cn("mx-auto w-full px-6 pb-12", wide ? "max-w-5xl" : "max-w-3xl")}>{children}</div>
    </div>
  );
}

/** A route made of one view under a header: its metadata (the title) and its page component. */
export function definePage(View: ComponentType, page: { title: string; description: string; wide?: boolean }) {
  function Page() {
    return (
      <PageLayout {...page}>
        <View />
      </PageLayout>
    );
  }
  return { metadata: { title: page.title } satisfies Metadata, Page };
}
