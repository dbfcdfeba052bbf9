import { ChevronRightIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** A button with a chevron that turns when what it opens is open: table rows, tool cards, advanced settings. */
export function ExpandButton({
  open,
  className,
  chevronClassName,
  children,
  ...props
}: Omit<ComponentProps<"button">, "type"> & { open: boolean; chevronClassName?: string }) {
  return (
    <button
      type="button"
      aria-expanded={open}
      className={cn("flex cursor-pointer items-center gap-1.5 rounded-md px-1 text-left hover:text-primary", className)}
      {...props}
    >
      <ChevronRightIcon className={cn("size-3.5 shrink-0 text-muted-foreground transition-transform", chevronClassName, open && "rotate-90")} />
      {children}
    </button>
  );
}
