import { ChevronRightIcon } from "lucide-react";
import type { ReactNode } from "react";

/** A collapsed "Text the model saw" disclosure under a capability's result view. */
export function ModelTextDetails({ children }: { children: ReactNode }) {
  return (
    <details className="group/model text-[12px]">
      <summary className="flex w-fit cursor-pointer items-center gap-1 text-muted-foreground select-none hover:text-foreground">
        <ChevronRightIcon className="size-3.5 transition-transform group-open/model:rotate-90" />
        Text the model saw
      </summary>
      <div className="mt-1.5">{children}</div>
    </details>
  );
}
