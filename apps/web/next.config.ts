import type { NextConfig } from "next";

// The host URL is read at request time by the /trpc route handler (src/app/trpc), never baked in here.
const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  devIndicators: false,
};

export default config;
