#!/usr/bin/env node
import { parseArgs } from "node:util";
import { ScriptError } from "./script.js";
import { startScriptedModel } from "./server.js";

const USAGE = "usage: seam-scripted-model --scripts <file-or-dir> [--scripts …] [--port N]";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      scripts: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${values.port}\n${USAGE}`);
  if (!values.scripts?.length) throw new Error(`--scripts is required\n${USAGE}`);

  const model = await startScriptedModel({ port, scripts: values.scripts });
  // e2e harnesses wait for this line.
  console.log(`scripted model listening on ${model.url} (base URL ${model.baseURL}; scripts: ${model.scripts.map((s) => s.name).join(", ")})`);
  const stop = () => void model.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof ScriptError || e instanceof Error ? e.message : String(e));
  process.exit(1);
});
