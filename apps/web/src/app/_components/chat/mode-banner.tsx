import { ArrowRightIcon, InfoIcon } from "lucide-react";
import Link from "next/link";

/** Direct mode: no model configured, the user drives tools by hand. */
export function ModeBanner({ onOpenTools }: { onOpenTools: () => void }) {
  return (
    <div
      data-testid="mode-banner"
      className="flex items-start gap-2.5 rounded-xl border border-primary/20 bg-primary-soft/60 px-3.5 py-2.5 text-[13px] leading-relaxed"
    >
      <InfoIcon className="mt-0.5 size-4 shrink-0 text-primary-soft-foreground" />
      <p className="min-w-0 text-foreground/90">
        <span className="font-medium">No model is configured — direct mode.</span> You can run tools yourself with{" "}
        <code className="rounded bg-card px-1 py-0.5 font-mono text-[12px]">/call &lt;tool&gt; {"{json}"}</code> or the{" "}
        <button type="button" onClick={onOpenTools} className="cursor-pointer font-medium text-primary-soft-foreground underline-offset-2 hover:underline">
          tool palette
        </button>
        .{" "}
        <Link href="/settings" className="inline-flex items-center gap-0.5 font-medium text-primary-soft-foreground underline-offset-2 hover:underline">
          Configure a model in Settings <ArrowRightIcon className="size-3" />
        </Link>
      </p>
    </div>
  );
}
