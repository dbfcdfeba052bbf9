import { afterEach } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createToolRegistry, type ToolRegistry } from "../../src/agent/registry.js";
import { startHostHalf, type HostHalf, type HostHalfLimits } from "../../src/extensions/runner.js";
import type { HostError } from "../../src/core/errors.js";
import { rejection } from "../support/errors.js";

export const SESSION = "s1";

const scopes: Scope[] = [];
afterEach(async () => {
  await Promise.all(scopes.splice(0).map((s) => s.dispose()));
});

export function setup() {
  const scope = createScope("test");
  scopes.push(scope);
  const registry = createToolRegistry();
  const start = (code: string, limits?: Partial<HostHalfLimits>, packageName = "demo"): Promise<HostHalf> =>
    startHostHalf(scope, { sessionId: SESSION, packageName, version: "1", code, registry, limits });
  const names = (r: ToolRegistry = registry) => r.visible(SESSION).map((t) => t.name);
  return { scope, registry, start, names };
}

/** Expects a failed start; returns the HostError. */
export const startFailure = (p: Promise<HostHalf>): Promise<HostError> => rejection(p);
