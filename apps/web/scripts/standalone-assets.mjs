// Runs after `next build`: the standalone server (`output: "standalone"`) serves `.next/static` and `public/`
// only from its own folder, and Next leaves copying them there to the build (documented under `output`).
import { cpSync, existsSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const web = fileURLToPath(new URL("..", import.meta.url));
// Next traces from the workspace root (the folder with package-lock.json), so the app sits at the same relative path.
const app = join(web, ".next/standalone", relative(join(web, "../.."), web));
if (!existsSync(join(app, "server.js"))) {
  console.error(`✗ next build left no standalone server at ${join(app, "server.js")}; check \`output: "standalone"\` in next.config.ts.`);
  process.exit(1);
}
for (const dir of [".next/static", "public"]) {
  rmSync(join(app, dir), { recursive: true, force: true });
  if (existsSync(join(web, dir))) cpSync(join(web, dir), join(app, dir), { recursive: true });
}
