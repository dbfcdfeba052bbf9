"use client";
import type { SearchHit } from "@seam/shared";
import { SEARCH_QUERY_MAX } from "@seam/shared";
import { SearchIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState, type KeyboardEvent } from "react";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { hitHref, hitOptionId, SearchResultsView } from "./search-results";
import { searchQueryOf, useSearch } from "./use-search";

/** Search across all sessions (CTX-5): results as you type; ↑/↓ pick, Enter opens the message in its session. */
export function SearchDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="search-dialog" hideClose className="top-[15vh] max-w-xl translate-y-0 gap-0 p-0">
        <DialogTitle className="sr-only">Search all sessions</DialogTitle>
        <DialogDescription className="sr-only">Type words to find them in every session's messages and tool calls.</DialogDescription>
        {open && <SearchPanel onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function SearchPanel({ onDone }: { onDone: () => void }) {
  const router = useRouter();
  const listId = useId();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const { query, hits, loading, error } = useSearch(text);
  const count = hits?.length ?? 0;
  const current = Math.min(active, Math.max(0, count - 1));

  const choose = (hit: SearchHit) => {
    onDone();
    router.push(hitHref(hit));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && count > 0) {
      e.preventDefault();
      setActive((current + (e.key === "ArrowDown" ? 1 : -1) + count) % count);
    } else if (e.key === "Enter" && hits?.[current]) {
      e.preventDefault();
      choose(hits[current]);
    }
  };

  return (
    <div className="flex max-h-[70vh] flex-col">
      <div className="flex items-center gap-2 border-b px-3">
        <SearchIcon className="size-4 shrink-0 text-muted-foreground" />
        <input
          autoFocus
          data-testid="search-input"
          type="text"
          enterKeyHint="search"
          role="combobox"
          aria-label="Search all sessions"
          aria-expanded={count > 0}
          aria-controls={listId}
          aria-activedescendant={count > 0 ? hitOptionId(listId, current) : undefined}
          maxLength={SEARCH_QUERY_MAX}
          placeholder="Search all sessions…"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="h-12 min-w-0 flex-1 bg-transparent text-[14.5px] outline-none placeholder:text-muted-foreground/70"
        />
        <kbd className="rounded border px-1.5 py-px text-[11px] text-muted-foreground">Esc</kbd>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-1.5">
        <SearchResultsView
          listId={listId}
          query={searchQueryOf(text) ? query : ""}
          hits={hits}
          loading={loading}
          error={error}
          active={current}
          onActive={setActive}
          onChoose={choose}
        />
      </div>
    </div>
  );
}
