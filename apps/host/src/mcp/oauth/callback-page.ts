import type { CallbackOutcome } from "./manager.js";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The small page the browser shows after the authorization server redirects to the host (MCP-11). */
export function callbackPage(outcome: CallbackOutcome): string {
  const title = outcome.ok ? "Signed in" : "Sign-in failed";
  const server = outcome.name ? `<p>MCP server: <strong>${escape(outcome.name)}</strong></p>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — Seam</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2328}h1{font-size:1.25rem}.err{color:#b42318}</style>
</head><body>
<h1 data-testid="oauth-callback-title">${title}</h1>
${server}
<p data-testid="oauth-callback-message"${outcome.ok ? "" : ' class="err"'}>${escape(outcome.message)}</p>
</body></html>
`;
}
