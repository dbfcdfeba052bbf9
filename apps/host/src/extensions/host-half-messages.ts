import type { JsonSchema } from "../agent/tool.js";
import type { halfCalls, ResultMessage } from "./host-half-calls.js";
import type { HalfContext } from "./host-half-context.js";
import type { halfOutbound } from "./host-half-outbound.js";
import type { ServiceRequest } from "./host-half-services.js";
import type { halfTools } from "./host-half-tools.js";

/** Everything worker.mjs posts to the host. */
export type FromWorker =
  | { t: "beat" | "ready" }
  | { t: "evalFailed"; limit: boolean; message: string }
  | { t: "register"; name: string; description: string; inputSchema: JsonSchema }
  | { t: "unregister"; name: string }
  | { t: "log"; line: string }
  | { t: "limit"; what: string; message: string }
  | { t: "dropped"; count: number }
  | { t: "emit"; name: string; payload: unknown }
  | { t: "send"; message: unknown }
  | ResultMessage
  | { t: "failure"; where: string; message: string }
  | ({ t: "service" } & ServiceRequest)
  | { t: "provide"; name: string; methods: string[] }
  | { t: "unprovide"; name: string };

/** Where the messages of a live half go. */
export interface MessageSinks {
  ctx: HalfContext;
  calls: ReturnType<typeof halfCalls>;
  tools: ReturnType<typeof halfTools>;
  outbound: ReturnType<typeof halfOutbound>;
  /** Services it provides: name → methods. */
  provided: Map<string, string[]>;
  /** The evaluation finished: the start resolves. */
  ready(): void;
  service(m: ServiceRequest): void;
}

/** Routes one message of a running (or starting) half to the part that handles it. */
export function dispatch(m: FromWorker, k: MessageSinks): void {
  const { ctx } = k;
  switch (m.t) {
    case "beat":
      return;
    case "ready":
      if (ctx.life.current === "starting") k.ready();
      return;
    case "evalFailed":
      return ctx.end(m.limit ? "limit_exceeded" : "crashed", m.message);
    case "register":
      return k.tools.register(m.name, m.description, m.inputSchema);
    case "unregister":
      return k.tools.unregister(m.name);
    case "log":
      return ctx.log(m.line);
    case "limit":
      ctx.log(`[limit] ${m.message}`);
      ctx.life.failure = m.message;
      return;
    case "dropped":
      ctx.log(`[limit] dropped ${m.count} message(s): more than ${ctx.limits.maxMessagesPerSecond} send/emit/log per second`);
      ctx.life.failure = `message flood: dropped ${m.count} message(s) over ${ctx.limits.maxMessagesPerSecond}/s`;
      return;
    case "emit":
      return k.outbound.emit(m.name, m.payload);
    case "send":
      return k.outbound.send(m.message);
    case "service":
      return k.service(m);
    case "provide":
      k.provided.set(m.name, m.methods);
      return;
    case "unprovide":
      k.provided.delete(m.name);
      return;
    case "failure":
      ctx.life.failure = `${m.where}: ${m.message}`;
      ctx.log(`[error] ${ctx.life.failure}`);
      return;
    case "result":
      return k.calls.settle(m);
  }
}
