import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createModel } from "../../src/llm/llm.js";
import { collect, failureOf, secretsOf, settings, startScriptedModel, TEST_KEY, type ScriptedModel } from "./helpers.js";

globalThis.AI_SDK_LOG_WARNINGS = false;

const echoKey = { error: { message: `Incorrect API key provided: ${TEST_KEY}`, type: "invalid_request_error", code: "invalid_api_key" } };

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel({
    scripts: [{
      name: "failures",
      turns: [
        { match: "^401", steps: [{ status: 401, body: echoKey }] },
        { match: "^403", steps: [{ status: 403 }] },
        { match: "^404", steps: [{ status: 404 }] },
        { match: "^429", steps: [{ status: 429 }] },
        { match: "^503", steps: [{ status: 503 }] },
        { match: "^400", steps: [{ status: 400, body: { error: { message: `bad field near ${TEST_KEY}` }, type: "error" } }] },
        { match: "^long", steps: [{ text: ["tick "], repeat: 100_000, delayMs: 10 }] },
        { match: "^hang", steps: [{ text: ["first ", "never"], hang: true }] },
      ],
    }],
  });
});
afterAll(() => server.close());

const signal = () => new AbortController().signal;

async function expectHostError(e: unknown, code: string, reason: string): Promise<HostError> {
  expect(e).toBeInstanceOf(HostError);
  const err = e as HostError;
  expect(err.code).toBe(code);
  expect(err.data?.reason).toBe(reason);
  expect(err.message).not.toContain(TEST_KEY);
  expect(JSON.stringify(err.data)).not.toContain(TEST_KEY);
  return err;
}

describe.each(["openai-compatible", "anthropic"] as const)("%s failures", (provider) => {
  const model = () => createModel(settings(provider, server.baseURL), secretsOf({ SCRIPTED_API_KEY: TEST_KEY }));
  const fail = (text: string) => failureOf(model().stream({ messages: [{ role: "user", text }], tools: [], signal: signal() }));

  test("401 → unavailable:llm naming the key's env var, never the key", async () => {
    const err = await expectHostError(await fail("401"), "unavailable:llm", "unauthorized");
    expect(err.message).toBe("The model endpoint refused the API key (401). Check SCRIPTED_API_KEY.");
  });

  test.each([
    ["403", "unauthorized", /denied access.*Check SCRIPTED_API_KEY/],
    ["404", "not_found", /404 for model "scripted".*Check the base URL and the model id/],
    ["429", "rate_limited", /rate-limiting.*\(429\)/],
    ["503", "server_error", /HTTP 503\. Try again later/],
    ["400", "bad_request", /rejected the request \(HTTP 400\): .*bad field near \*\*\*/],
  ])("HTTP %s → %s with advice", async (status, reason, message) => {
    const err = await expectHostError(await fail(status), "unavailable:llm", reason);
    expect(err.message).toMatch(message);
    expect(err.data?.status).toBe(Number(status));
  });

  test("an unreachable endpoint → unavailable:llm network, promptly (no retries)", async () => {
    const gone = await startScriptedModel({ scripts: [{ name: "x", turns: [{ match: "", steps: [{ text: "x" }] }] }] });
    await gone.close();
    const e = await failureOf(createModel(settings(provider, gone.baseURL), secretsOf({ SCRIPTED_API_KEY: TEST_KEY })).stream({ messages: [{ role: "user", text: "hi" }], tools: [], signal: signal() }));
    const err = await expectHostError(e, "unavailable:llm", "network");
    expect(err.message).toMatch(/Cannot reach the model endpoint at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/);
  });

  test("aborting mid-stream stops promptly with closed:llm aborted", async () => {
    const controller = new AbortController();
    let deltas = 0;
    let abortedAt = 0;
    const e = await failureOf((async function* () {
      for await (const event of model().stream({ messages: [{ role: "user", text: "long" }], tools: [], signal: controller.signal })) {
        if (event.type === "text" && ++deltas === 3) {
          abortedAt = Date.now();
          controller.abort();
        }
        yield event;
      }
    })());
    await expectHostError(e, "closed:llm", "aborted");
    expect(abortedAt).toBeGreaterThan(0);
    expect(deltas).toBeLessThan(10);
  });

  test("aborting while the endpoint hangs ends promptly", async () => {
    const controller = new AbortController();
    let settled = false;
    const pending = failureOf(model().stream({ messages: [{ role: "user", text: "hang" }], tools: [], signal: controller.signal })).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 200));
    // The endpoint never answers: nothing settles before the abort, and settling at all proves the abort ended the request.
    expect(settled).toBe(false);
    controller.abort();
    await expectHostError(await pending, "closed:llm", "aborted");
  });

  test("an already-aborted signal fails before any request", async () => {
    server.reset();
    const controller = new AbortController();
    controller.abort();
    await expectHostError(await failureOf(model().stream({ messages: [{ role: "user", text: "long" }], tools: [], signal: controller.signal })), "closed:llm", "aborted");
    expect(server.requests()).toHaveLength(0);
  });

  test("breaking out of the loop early cancels the request", async () => {
    for await (const event of model().stream({ messages: [{ role: "user", text: "long" }], tools: [], signal: signal() })) {
      if (event.type === "text") break;
    }
    // The server is still usable afterwards.
    const events = await collect(model().stream({ messages: [{ role: "user", text: "401" }], tools: [], signal: signal() })).catch((e: unknown) => e);
    expect(events).toBeInstanceOf(HostError);
  });
});

describe("configuration errors", () => {
  test("provider none throws bad_input:llm (direct mode)", () => {
    expect(() => createModel({ provider: "none", maxSteps: 25 }, secretsOf({}))).toThrow(HostError);
    try {
      createModel({ provider: "none", maxSteps: 25 }, secretsOf({}));
    } catch (e) {
      expect((e as HostError).code).toBe("bad_input:llm");
      expect((e as HostError).message).toMatch(/direct mode/);
    }
  });

  test("a missing model id or base URL is a bad_input:llm", () => {
    expect(() => createModel({ provider: "anthropic", maxSteps: 25 }, secretsOf({}))).toThrow(/No model id/);
    expect(() => createModel({ provider: "openai-compatible", model: "m", maxSteps: 25 }, secretsOf({}))).toThrow(/needs a base URL/);
  });

  test("a missing key fails the call with a message saying where to put it", async () => {
    server.reset();
    const model = createModel(settings("openai-compatible", server.baseURL), { get: () => undefined, file: "/home/me/.seam/secrets.json" });
    const err = await expectHostError(await failureOf(model.stream({ messages: [{ role: "user", text: "hi" }], tools: [], signal: signal() })), "bad_input:llm", "model_key_missing");
    expect(err.message).toBe('No API key found: SCRIPTED_API_KEY is not set. Export SCRIPTED_API_KEY before starting Seam, or add "SCRIPTED_API_KEY" to /home/me/.seam/secrets.json (mode 0600).');
    expect(server.requests()).toHaveLength(0);
  });

  test("a local endpoint without a key name sends no key", async () => {
    server.reset();
    const model = createModel({ provider: "openai-compatible", baseURL: server.baseURL, model: "scripted", maxSteps: 25 }, secretsOf({}));
    expect(model.label).toBe(`scripted @ 127.0.0.1:${server.port}`);
    await collect(model.stream({ messages: [{ role: "user", text: "hi" }], tools: [], signal: signal() }));
    expect(server.requests()[0]?.auth).toBeNull();
  });
});
