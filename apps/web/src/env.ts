/** Where the Seam host listens. Read per request so `next start` honours the current environment. */
export function hostUrl(): string {
  return (process.env.SEAM_HOST_URL ?? "http://127.0.0.1:4317").replace(/\/+$/, "");
}
