import type { LiveData, LiveEvent, LiveTopic } from "@seam/shared";

/** What a component does with one topic of the page's live stream. */
export interface LiveHandler<T extends LiveTopic = LiveTopic> {
  /** One payload of this topic; its type follows the topic (`session:<id>` → SessionEvent, `mcp` → McpServerView[]…). */
  onData(data: LiveData<T>): void;
  /** The stream (re)started with this topic subscribed: refetch what may have been missed. */
  onStarted?(): void;
  onError?(message: string): void;
}

/** A handler behind a ref, so a component can change its callbacks without re-registering. */
export interface HandlerRef<T extends LiveTopic = LiveTopic> { current: LiveHandler<T> }

/**
 * The watched topics of a page and who watches each; it turns the stream's events into handler calls.
 * Mounts and unmounts come in bursts (navigation), so the topic list is recomputed once per burst:
 * `onTopics` gets the sorted list only when it differs from the last one.
 */
export interface LiveRegistry {
  register<T extends LiveTopic>(topic: T, handler: HandlerRef<T>): () => void;
  /** Hands one stream event to the handlers it concerns: `started` to all, data and errors to their topic's. */
  dispatch(event: LiveEvent): void;
  topics(): LiveTopic[];
}

export function createLiveRegistry(onTopics: (topics: LiveTopic[]) => void, schedule: (fn: () => void) => void = (fn) => setTimeout(fn, 0)): LiveRegistry {
  const handlers = new Map<LiveTopic, Set<HandlerRef>>();
  let last: LiveTopic[] = [];
  let scheduled = false;

  const recompute = () => {
    if (scheduled) return;
    scheduled = true;
    schedule(() => {
      scheduled = false;
      const next = [...handlers.keys()].sort();
      if (next.length === last.length && next.every((t, i) => t === last[i])) return;
      last = next;
      onTopics(next);
    });
  };

  const each = (topic: LiveTopic | null, fn: (h: LiveHandler) => void) => {
    const sets = topic === null ? [...handlers.values()] : [handlers.get(topic) ?? new Set<HandlerRef>()];
    // A copy: a handler may unregister (or register another) while being called.
    for (const set of sets) for (const h of [...set]) fn(h.current);
  };

  return {
    register(topic, handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      const entry: HandlerRef = handler;
      set.add(entry);
      recompute();
      return () => {
        set.delete(entry);
        if (set.size === 0 && handlers.get(topic) === set) handlers.delete(topic);
        recompute();
      };
    },
    dispatch(event) {
      if (event.kind === "started") each(null, (h) => h.onStarted?.());
      else if (event.kind === "data") each(event.topic, (h) => h.onData(event.data));
      else each(event.topic, (h) => h.onError?.(event.message));
    },
    topics: () => last,
  };
}
