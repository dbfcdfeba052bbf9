import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_BODY_BYTES, startScriptedModel, type ScriptedModel } from "../src/index.js";

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel({
    scripts: [join(import.meta.dirname, "../scripts"), { name: "inline", turns: [{ match: "^hang", steps: [{ text: ["a", "b"], hang: true }] }] }],
  });
});
afterAll(() => server.close());

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

/** The `data:` payloads of an SSE body. */
const dataLines = (text: string) => text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));

describe("scripted model server", () => {
  test("non-streaming requests get a 400 that explains why", async () => {
    const res = await post("/v1/chat/completions", { model: "x", messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/only streams/);
  });

  test("bodies over 1 MiB are refused with 413", async () => {
    const res = await post("/v1/chat/completions", { stream: true, messages: [{ role: "user", content: "x".repeat(MAX_BODY_BYTES) }] });
    expect(res.status).toBe(413);
  });

  test("OpenAI wire: chunks, finish_reason, usage only when asked, [DONE]", async () => {
    const res = await post("/v1/chat/completions", { model: "hello", stream: true, messages: [{ role: "user", content: "hello" }] });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const lines = dataLines(await res.text());
    expect(lines.at(-1)).toBe("[DONE]");
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l) as { choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: unknown });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Hello from the scripted model.");
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  test("a conversation past its last step gets the default text; unmatched text says so", async () => {
    const finished = await post("/v1/chat/completions", { stream: true, messages: [{ role: "user", content: "hello" }, { role: "assistant", content: "Hello" }] });
    expect(await finished.text()).toContain("(script finished)");
    const unmatched = await post("/v1/messages", { stream: true, messages: [{ role: "user", content: "zzz" }] });
    expect(await unmatched.text()).toContain("no script turn matches");
  });

  test("a hanging step sends one chunk and then waits for the client to leave", async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ stream: true, messages: [{ role: "user", content: "hang" }] }), signal: controller.signal });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes('"content":"a"')) text += new TextDecoder().decode((await reader.read()).value);
    const next = reader.read();
    const raced = await Promise.race([next.then(() => "data"), new Promise((r) => setTimeout(() => r("waiting"), 150))]);
    expect(raced).toBe("waiting");
    controller.abort();
    await next.catch(() => undefined);
  });

  test("/__requests records bodies and /__reset clears them", async () => {
    await post("/__reset", "");
    await (await post("/v1/messages", { model: "hello", stream: true, messages: [{ role: "user", content: "hi" }] })).text();
    const recorded = (await (await fetch(`${server.url}/__requests`)).json()) as { path: string; body: { model: string } }[];
    expect(recorded).toEqual([{ path: "/v1/messages", body: expect.objectContaining({ model: "hello" }), auth: null }]);
    await post("/__reset", "");
    expect(server.requests()).toEqual([]);
  });
});

describe("command line (built dist; `npm test` builds first)", () => {
  const main = join(import.meta.dirname, "../dist/scripted-model/main.js");
  const run = (args: string[]) => spawn(process.execPath, [main, ...args], { stdio: ["ignore", "pipe", "pipe"] });

  test("starts, prints its URL, serves, and exits on SIGTERM", async () => {
    const child = run(["--port", "0", "--scripts", join(import.meta.dirname, "../scripts/hello.json")]);
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(d.toString());
        if (m?.[1]) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`exited with ${code}`)));
    });
    const health = (await (await fetch(`${url}/__health`)).json()) as { scripts: string[] };
    expect(health.scripts).toEqual(["hello"]);
    child.kill("SIGTERM");
    expect(await new Promise((r) => child.on("exit", r))).toBe(0);
  });

  test("a bad script file fails at start with its name", async () => {
    const child = run(["--scripts", join(import.meta.dirname, "script.test.ts")]);
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => { stderr += d.toString(); });
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(1);
    expect(stderr).toContain("script.test.ts is not valid JSON");
  });
});
