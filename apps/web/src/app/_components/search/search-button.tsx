"use client";
import { SearchIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Tip } from "@/components/ui/tooltip";
import { SearchDialog } from "./search-dialog";

/** Whether a key press lands in something the user types into (then "/" is a character, not the shortcut). */
export const isTyping = (target: EventTarget | null) => {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== "string") return false;
  return el.isContentEditable || el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT";
};

/** Ctrl/⌘+K anywhere, or "/" outside a text field, opens the search. */
export const isSearchShortcut = (e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey" | "target">) =>
  ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") ||
  (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target));

/** The sidebar's "Search" entry and the global shortcut (CTX-5). */
export function SearchButton({ collapsed }: { collapsed: boolean }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !isSearchShortcut(e)) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      {collapsed ? (
        <Tip label="Search all sessions (Ctrl+K)" side="right">
          <Button variant="subtle" size="icon-sm" data-testid="search-button" aria-label="Search all sessions" onClick={() => setOpen(true)}>
            <SearchIcon />
          </Button>
        </Tip>
      ) : (
        <Button variant="subtle" data-testid="search-button" className="w-full justify-start text-muted-foreground" onClick={() => setOpen(true)}>
          <SearchIcon /> <span className="flex-1 text-left">Search</span>
          <kbd className="rounded border px-1.5 py-px text-[11px]">Ctrl K</kbd>
        </Button>
      )}
      <SearchDialog open={open} onOpenChange={setOpen} />
    </>
  );
}
