"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/trpc/react";
import { listenBridge } from "./bridge-hub";
import { BRIDGE_HELLO } from "./frame-document";
import { clampHeight, parseFrameMessage, toJsonParams, type PageMessage } from "./frame-protocol";
import { messageOf } from "./use-extensions";

/** Calls a frame may have waiting at once; more are refused with a message. */
const MAX_IN_FLIGHT = 64;
/** Host messages kept while the frame is not connected yet. */
const MAX_BACKLOG = 100;
/** Render failures reported to the host per frame load. */
const MAX_REPORTS = 3;

/**
 * The page side of one browser half's bridge (EXT-4). The page never listens on `window`: it hands the
 * frame one end of a fresh MessageChannel after each load and talks only over the other end.
 */
export function useFrameBridge(runId: string, subscribe: boolean) {
  const client = useTRPCClient();
  const portRef = useRef<MessagePort | null>(null);
  const backlog = useRef<PageMessage[]>([]);
  const inFlight = useRef(0);
  const reports = useRef({ ok: false, errors: 0 });
  const [height, setHeight] = useState(120);
  const [ready, setReady] = useState(false);
  const [failures, setFailures] = useState<string[]>([]);

  const post = useCallback((message: PageMessage) => {
    const port = portRef.current;
    if (port) port.postMessage(message);
    else if (backlog.current.length < MAX_BACKLOG) backlog.current.push(message);
  }, []);

  // Host → browser messages arrive through the tab's one bridge stream (see bridge-hub.ts).
  useEffect(() => (subscribe ? listenBridge(runId, (message) => post({ t: "message", message })) : undefined), [runId, subscribe, post]);

  const report = useCallback(
    (ok: boolean, message?: string) => {
      void client.extensions.reportBrowser.mutate({ runId, ok, message: message?.slice(0, 4000) }).catch(() => undefined);
    },
    [client, runId],
  );

  const onFrameMessage = useCallback(
    (port: MessagePort, data: unknown) => {
      if (port !== portRef.current) return;
      const msg = parseFrameMessage(data);
      if (!msg) return;
      switch (msg.t) {
        case "size":
          setHeight(clampHeight(msg.height));
          return;
        case "ready":
          setReady(true);
          if (!reports.current.ok) {
            reports.current.ok = true;
            report(true);
          }
          return;
        case "error":
          setFailures((f) => [...f, msg.message].slice(-5));
          if (reports.current.errors < MAX_REPORTS) {
            reports.current.errors++;
            report(false, msg.message);
          }
          return;
        case "call": {
          const reply = (r: { ok: true; value: unknown } | { ok: false; error: string }) => port.postMessage({ t: "result", id: msg.id, ...r });
          const params = toJsonParams(msg.params);
          if (!params.ok) return reply(params);
          if (inFlight.current >= MAX_IN_FLIGHT) return reply({ ok: false, error: `too many calls in flight (at most ${MAX_IN_FLIGHT}); await earlier ones first` });
          inFlight.current++;
          client.extensions.call
            .mutate({ runId, method: msg.method, params: params.value })
            .then(
              (r) => reply({ ok: true, value: r.value }),
              (err: unknown) => reply({ ok: false, error: messageOf(err) }),
            )
            .finally(() => inFlight.current--);
          return;
        }
      }
    },
    [client, runId, report],
  );

  /** Call on every iframe `load`: a new document gets a new channel, and the old port is closed. */
  const connect = useCallback(
    (iframe: HTMLIFrameElement) => {
      portRef.current?.close();
      portRef.current = null;
      const win = iframe.contentWindow;
      if (!win) return;
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = (event) => onFrameMessage(port1, event.data);
      // The frame's origin is opaque, so "*" is the only target that reaches it; the port is the secret.
      win.postMessage(BRIDGE_HELLO, "*", [port2]);
      portRef.current = port1;
      reports.current = { ok: false, errors: 0 };
      setReady(false);
      setFailures([]);
      const queued = backlog.current;
      backlog.current = [];
      for (const m of queued) port1.postMessage(m);
    },
    [onFrameMessage],
  );

  useEffect(
    () => () => {
      portRef.current?.close();
      portRef.current = null;
    },
    [],
  );

  return { connect, height, ready, failures };
}
