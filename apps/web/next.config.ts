import type { NextConfig } from "next";

/**
 * The page's own CSP, deliberately narrow. `frame-src 'none'`: the only frames Seam shows are the browser
 * halves' sandboxed `srcdoc` frames (EXT-4), which inherit the page's policy container and are not
 * fetched, so the directive leaves them alone, while the browser refuses to load any URL into a frame,
 * including one a browser half navigates its own frame to (the request never leaves the browser).
 */
const PAGE_CSP = "frame-src 'none'";

// The host URL is read at request time by the /trpc route handler (src/app/trpc), never baked in here.
const config: NextConfig = {
  reactStrictMode: true,
  // `next build` also emits a self-contained server (.next/standalone); `npm start` runs it rather than
  // `next start`: ~25 % less memory, the same features (bench/README.md, "The web process: options measured").
  output: "standalone",
  poweredByHeader: false,
  devIndicators: false,
  headers: async () => [{ source: "/:path*", headers: [{ key: "Content-Security-Policy", value: PAGE_CSP }] }],
};

export default config;
