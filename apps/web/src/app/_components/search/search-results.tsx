"use client";
import type { SearchHit } from "@seam/shared";
import { MessageSquareIcon, UserIcon, WrenchIcon } from "lucide-react";
import { cn } from "@/lib/utils";

/** `/s/<session>?item=<item>`: the chat page opens around that item and highlights it. */
export const hitHref = (hit: Pick<SearchHit, "sessionId" | "itemId">) =>
  `/s/${encodeURIComponent(hit.sessionId)}?item=${encodeURIComponent(hit.itemId)}`;

export const hitOptionId = (listId: string, index: number) => `${listId}-${index}`;

const roleLabel = (hit: SearchHit) => (hit.kind === "tool_call" ? hit.role : hit.role === "user" ? "You" : "Assistant");

export interface SearchResultsViewProps {
  listId: string;
  /** The trimmed query (empty: nothing typed yet). */
  query: string;
  hits: SearchHit[] | undefined;
  loading: boolean;
  error: string | null;
  active: number;
  onActive: (index: number) => void;
  onChoose: (hit: SearchHit) => void;
}

/** The results under the search box: session title, who wrote it, and the snippet with the matching words marked. */
export function SearchResultsView({ listId, query, hits, loading, error, active, onActive, onChoose }: SearchResultsViewProps) {
  if (error) {
    return (
      <p data-testid="search-error" role="alert" className="px-3 py-6 text-center text-[13px] text-destructive">
        Search failed: {error}
      </p>
    );
  }
  if (!query) {
    return (
      <p data-testid="search-empty" className="px-3 py-6 text-center text-[13px] text-muted-foreground">
        Type words from any message or tool call of any session. The last word may be the start of a word.
      </p>
    );
  }
  if (!hits) {
    return (
      <p data-testid="search-loading" className="px-3 py-6 text-center text-[13px] text-muted-foreground">
        Searching…
      </p>
    );
  }
  if (hits.length === 0) {
    return (
      <p data-testid="search-no-results" className="px-3 py-6 text-center text-[13px] text-muted-foreground">
        No message or tool call matches “{query}”.
      </p>
    );
  }
  return (
    <div id={listId} role="listbox" aria-label="Search results" aria-busy={loading} data-testid="search-results" className="flex flex-col gap-px">
      {hits.map((hit, i) => {
        const Icon = hit.kind === "tool_call" ? WrenchIcon : hit.role === "user" ? UserIcon : MessageSquareIcon;
        return (
          <div
            key={hit.itemId}
            id={hitOptionId(listId, i)}
            role="option"
            aria-selected={i === active}
            // Focusable for assistive technology only: focus stays in the search box, which names this option as its active descendant.
            tabIndex={-1}
            data-testid="search-result"
            data-session-id={hit.sessionId}
            data-item-id={hit.itemId}
            className={cn("flex cursor-pointer flex-col gap-0.5 rounded-lg px-3 py-2", i === active ? "bg-subtle" : "hover:bg-muted")}
            onMouseMove={() => i !== active && onActive(i)}
            // mousedown, not click: the input keeps focus and the list does not re-render under the pointer first.
            onMouseDown={(e) => {
              e.preventDefault();
              onChoose(hit);
            }}
          >
            <span className="flex min-w-0 items-center gap-1.5 text-[12px] text-muted-foreground">
              <Icon className="size-3.5 shrink-0" />
              <span data-testid="search-result-title" className="truncate font-medium text-foreground">{hit.sessionTitle}</span>
              <span aria-hidden>·</span>
              <span className={cn("shrink-0", hit.kind === "tool_call" && "font-mono")}>{roleLabel(hit)}</span>
            </span>
            <span data-testid="search-result-snippet" className="line-clamp-2 text-[13px] leading-snug text-foreground/90">
              {hit.snippet.map((part, j) =>
                part.hit ? (
                  <mark key={j} className="rounded-sm bg-primary/20 px-px text-foreground">{part.text}</mark>
                ) : (
                  <span key={j}>{part.text}</span>
                ),
              )}
            </span>
          </div>
        );
      })}
    </div>
  );
}
