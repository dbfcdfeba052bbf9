import { createRequire } from "node:module";

type Tokenizer = typeof import("gpt-tokenizer");
let tokenizer: Tokenizer | undefined;
/**
 * gpt-tokenizer's o200k tables cost ~0.3 s and ~65 MB to load, so they load on the first count (the
 * host warms them right after start, off the request path: `agent/warm-up.ts`). `countText` stays
 * synchronous, hence `require` (the package's CommonJS build; nothing else imports it).
 */
const countTokens: Tokenizer["countTokens"] = (text, options) => {
  tokenizer ??= createRequire(import.meta.url)("gpt-tokenizer") as Tokenizer;
  return tokenizer.countTokens(text, options);
};

/** Text longer than this is counted on a prefix and scaled (a bound on the work per string). */
export const EXACT_CHARS_MAX = 256 * 1024;

const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * Tokens of `text` with the o200k_base encoding (GPT-4o's): an estimate for other providers'
 * tokenizers. Special-token markers are counted as plain text, as a provider would see them.
 */
export function countText(text: string): number {
  if (!text) return 0;
  if (text.length <= EXACT_CHARS_MAX) return countTokens(text, PLAIN);
  const head = countTokens(text.slice(0, EXACT_CHARS_MAX), PLAIN);
  return Math.ceil((head * text.length) / EXACT_CHARS_MAX);
}

/** Tokens a chat message costs beyond its content (role and separators), as OpenAI documents for its chat format. */
export const MESSAGE_OVERHEAD = 3;
