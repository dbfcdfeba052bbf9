"use client";
import { BellIcon, BlocksIcon, PanelLeftCloseIcon, PanelLeftOpenIcon, PlugIcon, PlusIcon, PuzzleIcon, SettingsIcon, ShieldCheckIcon, SparklesIcon } from "lucide-react";
import Link from "next/link";
import { IntentLink } from "@/components/intent-link";
import { usePathname } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Tip } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";
import { usePendingCount } from "../approvals/use-approvals";
import { SearchButton } from "../search/search-button";
import { NewSessionDialog } from "../sessions/new-session-dialog";
import { SessionList } from "../sessions/session-list";

const NAV = [
  { href: "/permissions", label: "Permissions", icon: ShieldCheckIcon },
  { href: "/extensions", label: "Extensions", icon: PuzzleIcon },
  { href: "/mcp", label: "MCP", icon: PlugIcon },
  { href: "/skills", label: "Skills", icon: SparklesIcon },
  { href: "/settings", label: "Settings", icon: SettingsIcon },
  { href: "/capabilities", label: "Capabilities", icon: BlocksIcon },
] as const;

export function Sidebar({
  collapsed,
  onToggle,
  hostVersion,
  onOpenApprovals,
}: {
  collapsed: boolean;
  onToggle: () => void;
  hostVersion?: string;
  onOpenApprovals: () => void;
}) {
  const pathname = usePathname();
  const pending = usePendingCount();

  if (collapsed) {
    return (
      <aside aria-label="Sidebar" className="flex w-13 shrink-0 flex-col items-center gap-1 border-r bg-sidebar py-3">
        <Tip label="Expand sidebar (Ctrl+B)" side="right">
          <Button variant="subtle" size="icon-sm" onClick={onToggle} aria-label="Expand sidebar" aria-expanded={false}>
            <PanelLeftOpenIcon />
          </Button>
        </Tip>
        <NewSessionDialog
          trigger={
            <Button variant="subtle" size="icon-sm" data-testid="new-session-button" aria-label="New session">
              <PlusIcon />
            </Button>
          }
        />
        <SearchButton collapsed />
        <div className="flex-1" />
        <Tip label={pending ? `Approvals (${pending} pending)` : "Approvals"} side="right">
          <Button variant="subtle" size="icon-sm" className="relative" data-testid="nav-approvals" aria-label={pending ? `Approvals, ${pending} pending` : "Approvals"} onClick={onOpenApprovals}>
            <BellIcon />
            {pending > 0 && <span aria-hidden className="absolute right-1 top-1 size-2 rounded-full bg-primary" />}
          </Button>
        </Tip>
        {NAV.map(({ href, label, icon: Icon }) => (
          <Tip key={href} label={label} side="right">
            <Button asChild variant="subtle" size="icon-sm" className={cn(pathname === href && "bg-subtle text-foreground")}>
              <IntentLink href={href} aria-label={label}>
                <Icon />
              </IntentLink>
            </Button>
          </Tip>
        ))}
      </aside>
    );
  }

  return (
    <aside aria-label="Sidebar" className="flex w-66 shrink-0 flex-col border-r bg-sidebar">
      <div className="flex h-13 items-center justify-between px-3">
        <Link href="/" className="flex items-center gap-2 rounded-md px-1 font-semibold tracking-tight">
          <SeamMark />
          <span>Seam</span>
        </Link>
        <Tip label="Collapse sidebar (Ctrl+B)" side="right">
          <Button variant="subtle" size="icon-sm" onClick={onToggle} aria-label="Collapse sidebar" aria-expanded>
            <PanelLeftCloseIcon />
          </Button>
        </Tip>
      </div>
      <div className="flex flex-col gap-1 px-3 pb-1">
        <NewSessionDialog
          trigger={
            <Button variant="outline" className="w-full justify-start" data-testid="new-session-button">
              <PlusIcon /> New session
            </Button>
          }
        />
        <SearchButton collapsed={false} />
      </div>
      <SessionList />
      <nav aria-label="Pages" className="flex flex-col gap-px border-t px-2 py-2">
        <button
          type="button"
          data-testid="nav-approvals"
          aria-label={pending ? `Approvals, ${pending} pending` : "Approvals"}
          onClick={onOpenApprovals}
          className="flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-1.5 text-left text-[13.5px] text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
        >
          <BellIcon className="size-4" />
          <span className="flex-1">Approvals</span>
          {pending > 0 && (
            <span data-testid="nav-approvals-count" className="rounded-full bg-primary px-1.5 py-px text-[11px] font-semibold text-primary-foreground tabular-nums">
              {pending}
            </span>
          )}
        </button>
        {NAV.map(({ href, label, icon: Icon }) => (
          <IntentLink
            key={href}
            href={href}
            aria-current={pathname === href ? "page" : undefined}
            className={cn(
              "flex items-center gap-2.5 rounded-lg px-2.5 py-1.5 text-[13.5px] text-muted-foreground transition-colors hover:bg-muted hover:text-foreground",
              pathname === href && "bg-subtle text-foreground",
            )}
          >
            <Icon className="size-4" />
            {label}
          </IntentLink>
        ))}
        {hostVersion && <div className="px-2.5 pt-1.5 text-[11px] text-muted-foreground/80">host {hostVersion}</div>}
      </nav>
    </aside>
  );
}

function SeamMark() {
  return (
    <span aria-hidden className="flex size-6 items-center justify-center rounded-md bg-primary text-primary-foreground">
      <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
        <path d="M3 5.5c2-2 4 2 6 0s3-1 4 0M3 10.5c2-2 4 2 6 0s3-1 4 0" />
      </svg>
    </span>
  );
}
