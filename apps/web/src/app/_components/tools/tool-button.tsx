"use client";
import type { ToolInfo } from "@seam/shared";
import { LockIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";
import { TOOL_ICONS, toolKind } from "../chat/tool-summary";

/** Effects that ask for approval in the default `ask` mode (PERM-1). */
const ASKS = new Set<ToolInfo["effect"]>(["write", "execute", "external"]);

/**
 * A tool to pick: icon, name, approval lock and description. `card` for the empty chat's grid,
 * `row` for the palette's list (which also says read-only).
 */
export function ToolButton({ tool, variant, className, ...props }: Omit<ComponentProps<"button">, "type" | "children"> & { tool: ToolInfo; variant: "card" | "row" }) {
  const Icon = TOOL_ICONS[toolKind(tool.name)];
  const row = variant === "row";
  return (
    <button
      type="button"
      className={cn(
        "flex cursor-pointer items-start gap-2.5 rounded-lg text-left",
        row ? "w-full px-2 py-2 hover:bg-muted focus-visible:bg-muted focus-visible:outline-none" : "group border bg-card px-3 py-2 transition-colors hover:bg-muted",
        className,
      )}
      {...props}
    >
      <Icon className={cn("mt-0.5 shrink-0 text-muted-foreground", row ? "size-4" : "size-3.5")} />
      <span className="min-w-0">
        <span className={cn("flex items-center gap-1.5 font-mono font-medium", row ? "text-[13px]" : "text-[12.5px]")}>
          {tool.name}
          {row && tool.effect === "read" && <span className="rounded bg-muted px-1 font-sans text-[10.5px] font-normal text-muted-foreground">read-only</span>}
          {ASKS.has(tool.effect) && <LockIcon className="size-3 text-muted-foreground" aria-label="asks for approval" />}
        </span>
        <span className={cn("line-clamp-2 leading-snug text-muted-foreground", row ? "text-[12.5px]" : "text-[12px]")}>{tool.description}</span>
      </span>
    </button>
  );
}
