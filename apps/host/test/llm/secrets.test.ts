import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ModelSettings } from "@seam/shared";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createModel, keyEnvFor, MODEL_PRESETS, settingsFromPreset } from "../../src/llm/llm.js";
import { createSecretSource } from "../../src/llm/secrets.js";
import { collect, settings, startScriptedModel, TEST_KEY } from "./helpers.js";
import { thrown } from "../support/errors.js";

let home: string;
beforeEach(() => { home = mkdtempSync(join(tmpdir(), "seam-secrets-")); });
afterEach(() => rmSync(home, { recursive: true, force: true }));

function writeSecrets(content: string, mode = 0o600): string {
  const file = join(home, "secrets.json");
  writeFileSync(file, content, { mode });
  chmodSync(file, mode); // the umask may have narrowed `mode`
  return file;
}

describe("createSecretSource (SEC-2)", () => {
  test("env wins over the secrets file", () => {
    writeSecrets(JSON.stringify({ DEEPSEEK_API_KEY: "from-file" }));
    const secrets = createSecretSource({ home, env: { DEEPSEEK_API_KEY: "from-env" } });
    expect(secrets.get("DEEPSEEK_API_KEY")).toEqual({ value: "from-env", source: "env DEEPSEEK_API_KEY" });
  });

  test("falls back to the 0600 secrets file (an empty env var counts as unset)", () => {
    writeSecrets(JSON.stringify({ DEEPSEEK_API_KEY: "from-file" }));
    const secrets = createSecretSource({ home, env: { DEEPSEEK_API_KEY: "" } });
    expect(secrets.get("DEEPSEEK_API_KEY")).toEqual({ value: "from-file", source: "secrets file key DEEPSEEK_API_KEY" });
    expect(secrets.get("OTHER")).toBeUndefined();
  });

  test("no env and no file → undefined", () => {
    expect(createSecretSource({ home, env: {} }).get("DEEPSEEK_API_KEY")).toBeUndefined();
  });

  test("a 0644 secrets file is refused with a chmod hint and no values", () => {
    const file = writeSecrets(JSON.stringify({ DEEPSEEK_API_KEY: "sekrit-value" }), 0o644);
    const err = thrown(() => createSecretSource({ home, env: {} }).get("DEEPSEEK_API_KEY"));
    expect(err.code).toBe("denied:llm");
    expect(err.message).toBe(`The secrets file ${file} has mode 0644, so other users can read it. Run \`chmod 600 ${file}\` and try again.`);
    expect(err.message).not.toContain("sekrit-value");
  });

  test("the env still works while the file is unsafe", () => {
    writeSecrets("{}", 0o640);
    expect(createSecretSource({ home, env: { K: "v" } }).get("K")?.source).toBe("env K");
  });

  test("malformed files are named without echoing their content", () => {
    writeSecrets('{"DEEPSEEK_API_KEY": "sekrit-value",');
    const err = thrown(() => createSecretSource({ home, env: {} }).get("DEEPSEEK_API_KEY"));
    expect(err.code).toBe("bad_input:llm");
    expect(err.message).toMatch(/secrets\.json is not valid JSON/);
    expect(err.message).not.toContain("sekrit");

    writeSecrets(JSON.stringify({ A: 1 }));
    expect(thrown(() => createSecretSource({ home, env: {} }).get("A")).message).toMatch(/value of key A must be a string/);
  });

  test("keyStatus explains each state in words", () => {
    const secrets = createSecretSource({ home, env: { DEEPSEEK_API_KEY: "k" } });
    expect(secrets.keyStatus({ provider: "none", maxSteps: 25 }).text).toMatch(/direct mode/);
    expect(secrets.keyStatus(settingsFromPreset("ollama")).text).toBe("No API key needed: requests to http://127.0.0.1:11434/v1 are sent without one.");
    expect(secrets.keyStatus(settingsFromPreset("deepseek"))).toEqual({
      keyEnv: "DEEPSEEK_API_KEY", keySource: "env DEEPSEEK_API_KEY", problem: null, text: "Using the API key from env DEEPSEEK_API_KEY.",
    });
    const missing = secrets.keyStatus({ ...settingsFromPreset("openai"), model: "gpt" });
    expect(missing.problem).toBe(`No API key found: OPENAI_API_KEY is not set. Export OPENAI_API_KEY before starting Seam, or add "OPENAI_API_KEY" to ${join(home, "secrets.json")} (mode 0600).`);
    writeSecrets("{}", 0o644);
    expect(secrets.keyStatus({ ...settingsFromPreset("openai"), model: "gpt" }).problem).toMatch(/chmod 600/);
  });

  test("the adapter sends a key read from the secrets file", async () => {
    writeSecrets(JSON.stringify({ SCRIPTED_API_KEY: TEST_KEY }));
    const server = await startScriptedModel({ scripts: [{ name: "s", turns: [{ match: "", steps: [{ text: "ok" }] }] }] });
    try {
      const model = createModel(settings("openai-compatible", server.baseURL), createSecretSource({ home, env: {} }));
      await collect(model.stream({ messages: [{ role: "user", text: "hi" }], tools: [], signal: new AbortController().signal }));
      expect(server.requests()[0]?.auth).toBe("authorization");
    } finally {
      await server.close();
    }
  });
});

describe("keys per step", () => {
  test("a key edited in the secrets file applies to the next step, with the same model or a new one", async () => {
    // A loopback endpoint that keeps the keys it was sent (test keys only) and answers in the OpenAI stream format.
    const seen: string[] = [];
    const chunk = (body: object) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", ...body })}\n\n`;
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization ?? "(none)");
      req.resume().on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(chunk({ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: null }] }) +
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }) + "data: [DONE]\n\n");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const secrets = createSecretSource({ home, env: {} });
      const step = (model = createModel(settings("openai-compatible", baseURL), secrets)) =>
        collect(model.stream({ messages: [{ role: "user", text: "hi" }], tools: [], signal: new AbortController().signal }));
      const kept = createModel(settings("openai-compatible", baseURL), secrets);
      writeSecrets(JSON.stringify({ SCRIPTED_API_KEY: "key-one" }));
      await step(kept);
      await step();
      writeSecrets(JSON.stringify({ SCRIPTED_API_KEY: "key-two" }));
      await step(kept);
      await step();
      writeSecrets(JSON.stringify({ SCRIPTED_API_KEY: "key-one" }));
      await step();
      expect(seen).toEqual(["Bearer key-one", "Bearer key-one", "Bearer key-two", "Bearer key-two", "Bearer key-one"]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("presets", () => {
  test("DeepSeek defaults, and every preset is valid settings", () => {
    expect(settingsFromPreset("deepseek")).toEqual({
      provider: "openai-compatible", baseURL: "https://api.deepseek.com/v1", model: "deepseek-chat", apiKeyEnv: "DEEPSEEK_API_KEY", maxSteps: 25,
    });
    for (const p of MODEL_PRESETS) {
      const parsed = ModelSettings.safeParse({ ...settingsFromPreset(p.id), model: p.model ?? "some-model" });
      expect(parsed.success, p.id).toBe(true);
    }
    expect(MODEL_PRESETS.filter((p) => !p.apiKeyEnv).map((p) => p.id)).toEqual(["ollama", "vllm", "llama.cpp"]);
  });

  test("keyEnvFor: configured name, else the hosted preset matching the base URL, else Anthropic's", () => {
    expect(keyEnvFor({ provider: "openai-compatible", baseURL: "https://api.deepseek.com/v1", model: "m", apiKeyEnv: "MY_KEY", maxSteps: 25 })).toBe("MY_KEY");
    expect(keyEnvFor({ provider: "openai-compatible", baseURL: "https://api.deepseek.com", model: "m", maxSteps: 25 })).toBe("DEEPSEEK_API_KEY");
    expect(keyEnvFor({ provider: "openai-compatible", baseURL: "http://127.0.0.1:8000/v1", model: "m", maxSteps: 25 })).toBeUndefined();
    expect(keyEnvFor({ provider: "anthropic", model: "claude", maxSteps: 25 })).toBe("ANTHROPIC_API_KEY");
  });
});
