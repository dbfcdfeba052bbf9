import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens as packageCount } from "gpt-tokenizer";
import { afterAll, describe, expect, it } from "vitest";
import { loadTokenizer } from "../../src/agent/tokens.js";

const dir = mkdtempSync(join(tmpdir(), "seam-tokens-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const script = fileURLToPath(new URL("../../scripts/tokenizer-ranks.mjs", import.meta.url));

// Plain prose, code, CJK, emoji (tokens that are not valid UTF-8 alone), a special-token marker, whitespace runs.
const TEXTS = [
  "The quick brown fox jumps over the lazy dog.",
  "export function countText(text: string): number {\n  return text.length;\n}\n",
  "日本語のテキストと한국어 문장, 中文句子。",
  "emoji 🧑‍💻🚀 and combining é ñ",
  "literal <|endoftext|> marker",
  "    indented\t\ttabs\n\n\n",
  "x".repeat(5000),
];
const PLAIN = { disallowedSpecial: new Set<string>() };

describe("token counts from the build's JSON ranks (CTX-1, #17 item 3)", () => {
  it("count exactly as gpt-tokenizer's own o200k encoding", () => {
    const ranks = join(dir, "o200k_base.json");
    execFileSync(process.execPath, [script, ranks]);
    const fromJson = loadTokenizer(ranks);
    for (const text of TEXTS) expect(fromJson.countTokens(text, PLAIN), text.slice(0, 30)).toBe(packageCount(text, PLAIN));
    expect(fromJson.countTokens("hello world")).toBe(2);
  });

  it("without the file (running from sources) the package's encoding counts", () => {
    const fallback = loadTokenizer(join(dir, "missing.json"));
    for (const text of TEXTS) expect(fallback.countTokens(text, PLAIN)).toBe(packageCount(text, PLAIN));
  });
});
