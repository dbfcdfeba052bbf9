import { expect } from "vitest";
import { HostError } from "../../src/core/errors.js";

const hostError = (error: unknown): HostError => {
  expect(error).toBeInstanceOf(HostError);
  return error as HostError;
};

/** The HostError `fn` throws; the test fails when it returns or throws anything else. */
export function thrown(fn: () => unknown): HostError {
  try {
    fn();
  } catch (error) {
    return hostError(error);
  }
  throw new Error("expected a HostError to be thrown");
}

/** The HostError `promise` rejects with; the test fails when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<HostError> {
  try {
    await promise;
  } catch (error) {
    return hostError(error);
  }
  throw new Error("expected a HostError rejection");
}
