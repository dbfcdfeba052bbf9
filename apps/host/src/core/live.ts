import type { FixedTopic, LivePayloads, SessionEvent } from "@seam/shared";

/** A live topic's source: its current state (where it has one) and then every change, until `signal` aborts. */
export type LiveSource<T> = (signal: AbortSignal) => AsyncIterable<T>;

/**
 * Every live topic's source, as the host composes them from its capabilities. The type has one key
 * per topic of `LivePayloads`, so a topic without a source (or with the wrong payload) fails to compile.
 */
export type LiveSources = { [K in FixedTopic]: LiveSource<LivePayloads[K]> } & {
  /** Topic `session:<id>`. */
  session(sessionId: string, signal: AbortSignal): AsyncIterable<SessionEvent>;
};
