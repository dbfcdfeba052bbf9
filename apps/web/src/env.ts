/** Where the Seam host listens. Read per request so the running web server honours its current environment. */
export function hostUrl(): string {
  return (process.env.SEAM_HOST_URL ?? "http://127.0.0.1:4317").replace(/\/+$/, "");
}
