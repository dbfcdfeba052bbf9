/** Measures both pipelines with a Node SSE client talking to them directly (host overhead alone). */
import type { SessionTopic } from "@seam/shared";
import { EventSource } from "eventsource";
import type { ScriptedModel } from "../packages/testkit/src/index.js";
import { hostClient } from "../apps/host/test/support/host-client.js";
import { latencies, startRelay, startSeam, wallNow } from "./pipelines.js";

export { hostClient };

export async function relayToNode(model: ScriptedModel, sentAt: Map<string, number>, deltas: number): Promise<number[]> {
  const relay = await startRelay(model);
  const received = new Map<string, number>();
  await new Promise<void>((resolve) => {
    const es = new EventSource(`${relay.url}/events`);
    es.onmessage = (e) => {
      received.set(JSON.parse(e.data), wallNow());
      if (received.size === deltas) {
        es.close();
        resolve();
      }
    };
  });
  await relay.close();
  return latencies(sentAt, received);
}

export async function seamToNode(model: ScriptedModel, sentAt: Map<string, number>): Promise<number[]> {
  const seam = await startSeam(model);
  try {
    const client = hostClient(seam.url, seam.token);
    const session = await client.session.create.mutate({ workspace: seam.workspace, title: "bench" });
    const received = new Map<string, number>();
    await new Promise<void>((resolve, reject) => {
      // The path the page uses: one live stream, this session's topic.
      const topic: SessionTopic = `session:${session.id}`;
      const sub = client.live.stream.subscribe({ topics: [topic] }, {
        onData: (event) => {
          if (event.kind === "started") void client.session.send.mutate({ sessionId: session.id, text: "bench" }).catch(reject);
          if (event.kind !== "data" || event.topic !== topic) return;
          const data = event.data;
          if (data.type === "delta") received.set(data.text, wallNow());
          if (data.type === "turn" && data.turn.status !== "running") {
            sub.unsubscribe();
            resolve();
          }
        },
        onError: reject,
      });
    });
    return latencies(sentAt, received);
  } finally {
    await seam.close();
  }
}
