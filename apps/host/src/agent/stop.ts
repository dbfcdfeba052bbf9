/** Why a running turn was cut short, as the turn's recorded reason says it. */
export type StopCause = "user" | "shutdown" | "deleted" | "lease";

const TEXT: Record<StopCause, string> = {
  user: "Stopped by the user.",
  shutdown: "Stopped because the host shut down; send the message again to continue.",
  deleted: "Stopped because the session was deleted.",
  lease: "Stopped because this host lost the session to another host (it did not renew its lease in time); send the message again to continue.",
};

/** The abort reason a turn's controller is given, so the turn can record why it ended. */
export class TurnStop extends Error {
  override name = "TurnStop";
  constructor(readonly cause: StopCause) {
    super(TEXT[cause]);
  }
}

/** The recorded reason of a turn whose signal aborted: the TurnStop's text, or "stopped by the user" for any other abort. */
export function stopReason(signal: AbortSignal): string {
  return signal.reason instanceof TurnStop ? signal.reason.message : TEXT.user;
}
