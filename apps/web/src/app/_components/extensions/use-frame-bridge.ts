"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/trpc/react";
import { listenBridge } from "./bridge-hub";
import { BRIDGE_HELLO } from "./frame-document";
import { FrameLoads, isFrameHello, NAVIGATED_AWAY, newFrameNonce, NOT_IDENTIFIED } from "./frame-gate";
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
 * frame one end of a fresh MessageChannel on the frame's first load only, listens on the other end once
 * the srcdoc document has echoed its nonce, and treats any later load as a navigation that tears the
 * frame down (see `frame-gate.ts`). `nonce` goes into the srcdoc and keys the iframe: `reload()` makes a
 * new frame element with a new nonce.
 */
export function useFrameBridge(runId: string, subscribe: boolean) {
  const client = useTRPCClient();
  const [nonce, setNonce] = useState(newFrameNonce);
  const [removed, setRemoved] = useState(false);
  const loads = useRef(new FrameLoads());
  /** The port of the current handshake, from the moment it is handed over. */
  const channelRef = useRef<MessagePort | null>(null);
  /** The same port once the frame identified itself: the only one the page reads from or writes to. */
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

  /** Closes the bridge, removes the frame and reports why: it no longer holds the approved document. */
  const tearDown = useCallback(
    (iframe: HTMLIFrameElement, why: string) => {
      loads.current.fail(iframe);
      channelRef.current?.close();
      channelRef.current = null;
      portRef.current = null;
      setReady(false);
      setRemoved(true);
      setFailures((f) => [...f, why].slice(-5));
      report(false, why);
    },
    [report],
  );

  /**
   * Call on every iframe `load`. The first load of an element is the srcdoc document, and it alone gets the
   * port; a later load means the frame navigated (or reloaded) and ends it.
   */
  const connect = useCallback(
    (iframe: HTMLIFrameElement) => {
      const load = loads.current.load(iframe);
      if (load === "ignore") return;
      if (load === "navigated") return tearDown(iframe, NAVIGATED_AWAY);
      const win = iframe.contentWindow;
      if (!win) return;
      channelRef.current?.close();
      portRef.current = null;
      const { port1, port2 } = new MessageChannel();
      channelRef.current = port1;
      let identified = false;
      port1.onmessage = (event) => {
        if (identified) return onFrameMessage(port1, event.data);
        // Until the document proves it is the srcdoc Seam wrote, nothing is read from it or sent to it.
        if (!isFrameHello(event.data, nonce)) return tearDown(iframe, NOT_IDENTIFIED);
        identified = true;
        portRef.current = port1;
        const queued = backlog.current;
        backlog.current = [];
        for (const m of queued) port1.postMessage(m);
      };
      // The frame's origin is opaque, so "*" is the only target that reaches it: the handshake happens once,
      // now, while the frame still holds the srcdoc and no extension code has run.
      win.postMessage(BRIDGE_HELLO, "*", [port2]);
      reports.current = { ok: false, errors: 0 };
      setReady(false);
      setFailures([]);
    },
    [nonce, onFrameMessage, tearDown],
  );

  /** A new frame element with a new nonce (and a fresh handshake); the old port is closed. */
  const reload = useCallback(() => {
    channelRef.current?.close();
    channelRef.current = null;
    portRef.current = null;
    setRemoved(false);
    setFailures([]);
    setNonce(newFrameNonce());
  }, []);

  useEffect(
    () => () => {
      channelRef.current?.close();
      channelRef.current = null;
      portRef.current = null;
    },
    [],
  );

  return { nonce, connect, reload, removed, height, ready, failures };
}
