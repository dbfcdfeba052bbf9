import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

type Tokenizer = Pick<typeof import("gpt-tokenizer"), "countTokens">;
type GptEncodingModule = typeof import("gpt-tokenizer/GptEncoding");

/**
 * The o200k ranks as JSON, written beside the compiled code by the build (`scripts/tokenizer-ranks.mjs`,
 * from gpt-tokenizer's own table). Parsing JSON holds ~20 MB less of the host's memory than loading the
 * package's table, a 2.4 MB JavaScript array literal, and takes less time.
 */
export const RANKS_PATH = fileURLToPath(new URL("./o200k_base.json", import.meta.url));

/**
 * gpt-tokenizer's o200k encoding, from the ranks at `ranksPath` when they are there; otherwise (running
 * from sources, no build) the package's default export, which is the same encoding.
 */
export function loadTokenizer(ranksPath = RANKS_PATH): Tokenizer {
  const require = createRequire(import.meta.url);
  if (!existsSync(ranksPath)) return require("gpt-tokenizer") as Tokenizer;
  const ranks = JSON.parse(readFileSync(ranksPath, "utf8")) as (string | number[])[];
  const { GptEncoding } = require("gpt-tokenizer/GptEncoding") as GptEncodingModule;
  return GptEncoding.getEncodingApi("o200k_base", () => ranks);
}

let tokenizer: Tokenizer | undefined;
/**
 * The tables cost ~0.2 s and tens of MB to load, so they load on the first count (the host warms them soon
 * after start, off the request path: `warm-up.ts`). `countText` stays synchronous, hence `require` (the
 * package's CommonJS build; nothing else imports it).
 */
const countTokens: Tokenizer["countTokens"] = (text, options) => {
  tokenizer ??= loadTokenizer();
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
