import type { TRPCRouterRecord } from "@trpc/server";
import { LiveInput, sessionOfTopic, type LiveDataEvent, type LiveEvent, type LiveTopic, type SessionTopic } from "@seam/shared";
import { iterateEvents } from "../../core/events.js";
import type { LiveSources } from "../../core/live.js";
import { clientMessage, procedure } from "../trpc.js";

/** The host stream behind one live topic, as data events of that topic (each with its own payload type). */
async function* source(live: LiveSources, topic: LiveTopic, signal: AbortSignal): AsyncGenerator<LiveDataEvent> {
  const sessionId = sessionOfTopic(topic);
  if (sessionId !== null) {
    for await (const data of live.session(sessionId, signal)) yield { kind: "data", topic: `session:${sessionId}`, data };
    return;
  }
  switch (topic) {
    case "sessions": for await (const data of live.sessions(signal)) yield { kind: "data", topic, data }; return;
    case "extensions": for await (const data of live.extensions(signal)) yield { kind: "data", topic, data }; return;
    case "bridge": for await (const data of live.bridge(signal)) yield { kind: "data", topic, data }; return;
    case "mcp": for await (const data of live.mcp(signal)) yield { kind: "data", topic, data }; return;
    case "lsp": for await (const data of live.lsp(signal)) yield { kind: "data", topic, data }; return;
    case "approvals": for await (const data of live.approvals(signal)) yield { kind: "data", topic, data }; return;
    case "jobs": for await (const data of live.jobs(signal)) yield { kind: "data", topic, data }; return;
    case "elicitations": for await (const data of live.elicitations(signal)) yield { kind: "data", topic, data }; return;
    case "mcpLogs": for await (const data of live.mcpLogs(signal)) yield { kind: "data", topic, data }; return;
    default: {
      // A topic added to LiveTopic without a case here would never send anything.
      const unrouted: SessionTopic = topic;
      throw new Error(`live topic ${unrouted} has no source`);
    }
  }
}

/**
 * Merges the topics' streams into one (a page holds one connection for all its live data). Every
 * source is subscribed before `started` is sent, so a page that refetches on `started` misses nothing.
 */
export async function* mergeTopics(live: LiveSources, topics: LiveTopic[], signal: AbortSignal): AsyncGenerator<LiveEvent> {
  const stop = new AbortController();
  const until = AbortSignal.any([signal, stop.signal]);
  let emit: (event: LiveEvent) => void = () => {};
  const merged = iterateEvents<LiveEvent>((fn) => {
    emit = (event) => void fn(event);
    return () => { emit = () => {}; };
  }, until);
  for (const topic of new Set(topics)) {
    void (async () => {
      try {
        // Runs synchronously up to each source's subscription, so all are subscribed before `started`.
        for await (const event of source(live, topic, until)) emit(event);
      } catch (error) {
        if (!until.aborted) emit({ kind: "error", topic, message: clientMessage(error, `live.stream ${topic}`) });
      }
    })();
  }
  try {
    yield { kind: "started" };
    yield* merged;
  } finally {
    // Every source ends on this abort.
    stop.abort();
  }
}

export const liveRouter = {
  /** Every live topic a page watches, on one stream. */
  stream: procedure.input(LiveInput).subscription(({ ctx, input, signal }) =>
    mergeTopics(ctx.host.live, input.topics, signal ?? new AbortController().signal)),
} satisfies TRPCRouterRecord;
