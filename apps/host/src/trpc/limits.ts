import { EXTENSION_CODE_MAX, MCP_IMPORT_MAX_CHARS } from "@seam/shared";

/**
 * Largest request body the host reads, in bytes (SEC-5). The largest inputs are a pasted MCP import
 * (MCP_IMPORT_MAX_CHARS = 1,000,000 characters are read so that an oversized paste is answered with its size in
 * words; the import limit itself is MCP_IMPORT_MAX_BYTES = 256 KB) and an extension definition (two halves of
 * EXTENSION_CODE_MAX = 200,000 characters). In a JSON body a character takes 1 to 3 bytes (UTF-8; a
 * quote or a newline is escaped as 2), so 4 MiB holds the larger of them whatever it is written in,
 * with room for the envelope. Larger bodies are refused with 413 before they are parsed.
 */
export const BODY_MAX_BYTES = 4 * 1024 * 1024;

/** The characters the largest legitimate input may have; BODY_MAX_BYTES holds it at 3 bytes each. */
export const LARGEST_INPUT_CHARS = Math.max(MCP_IMPORT_MAX_CHARS, 2 * EXTENSION_CODE_MAX);

export const BODY_TOO_LARGE = `The request body is larger than the host accepts (${BODY_MAX_BYTES / (1024 * 1024)} MB).`;
