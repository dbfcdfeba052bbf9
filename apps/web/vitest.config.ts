import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Hook and component tests (`*.test.tsx`) opt into a DOM with `// @vitest-environment happy-dom`.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  test: { include: ["test/**/*.test.ts", "test/**/*.test.tsx"], environment: "node" },
});
