/**
 * The EventSource the subscription link uses: the native one, except that every instance of this
 * document is closed when the page goes into the back/forward cache.
 *
 * Chrome keeps a cached page's EventSources open, and allows only six HTTP/1.1 connections per host.
 * After one full navigation (typing a URL) the new page's subscriptions and requests could then wait
 * for up to a minute. A page restored from the cache has no live subscriptions left, so it reloads.
 */
export function pageEventSource(): typeof EventSource | undefined {
  if (typeof window === "undefined" || typeof EventSource === "undefined") return undefined;
  const open = new Set<EventSource>();
  class PageEventSource extends EventSource {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      open.add(this);
    }
    override close(): void {
      open.delete(this);
      super.close();
    }
  }
  window.addEventListener("pagehide", (event) => {
    if (!event.persisted) return;
    for (const source of [...open]) source.close();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) window.location.reload();
  });
  return PageEventSource;
}
