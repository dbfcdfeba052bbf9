import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { AppShell } from "./_components/shell/app-shell";
import { Providers } from "./_components/shell/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Seam", template: "%s · Seam" },
  description: "Agent workbench for developers",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fcfcfd" },
    { media: "(prefers-color-scheme: dark)", color: "#1b1b1f" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
