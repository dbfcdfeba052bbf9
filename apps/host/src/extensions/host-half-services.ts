import { HostError, messageOf } from "../core/errors.js";
import type { HostHalfServices } from "./host-half-types.js";

/** A service call from the worker (`api.web.*`, `api.services.call`). */
export interface ServiceRequest { id: number; service: string; method: string; args: unknown }
export type ServiceAnswer = { ok: true; value: unknown } | { ok: false; error: string };

const asObject = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The function that serves `m`, if the half may reach one: the host's web service, or another extension's. */
function serviceFor(m: ServiceRequest, services: HostHalfServices | undefined): ((signal: AbortSignal) => Promise<unknown>) | undefined {
  const web = m.service === "web" ? services?.web : undefined;
  if (web) return m.method === "fetch" || m.method === "search" ? (signal) => web[m.method as "fetch" | "search"](asObject(m.args), signal) : undefined;
  return services?.call && ((signal) => services.call!(m.service, m.method, m.args, signal));
}

/** Answers one service call with JSON or a failure in words; `reply` decides whether the half still listens. */
export async function answerService(m: ServiceRequest, services: HostHalfServices | undefined, signal: AbortSignal, reply: (answer: ServiceAnswer) => void) {
  const fn = serviceFor(m, services);
  if (!fn) return reply({ ok: false, error: m.service === "web" && services?.web ? `the web service has no method ${m.method}` : `the ${m.service} service is not available to extensions here` });
  try {
    const value = await fn(signal);
    reply({ ok: true, value: JSON.parse(JSON.stringify(value ?? null)) });
  } catch (error) {
    const code = error instanceof HostError ? `[${error.publicCode}] ` : "";
    reply({ ok: false, error: `${m.service}.${m.method} failed: ${code}${messageOf(error)}` });
  }
}
