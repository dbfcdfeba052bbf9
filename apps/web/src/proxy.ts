import { NextResponse, type NextRequest } from "next/server";
import { TOKEN_COOKIE, takeToken } from "./trpc/token";

/**
 * SEC-1 token bootstrap: `npm start` prints `http://127.0.0.1:3000/?token=…`. The server moves the token
 * into the `seam_token` cookie — HttpOnly, so no script (of this page or of another local port; cookies are
 * not port-scoped) can read it; SameSite=Strict, so no other site sends it — and redirects to the same URL
 * without it, so the token never stays in the address bar or history. The host still checks Origin and Host.
 */
export function proxy(request: NextRequest): NextResponse {
  const taken = takeToken(request.nextUrl);
  if (!taken) return NextResponse.next();
  const response = NextResponse.redirect(taken.rest, 303);
  response.cookies.set(TOKEN_COOKIE, taken.token, { httpOnly: true, sameSite: "strict", path: "/", maxAge: 365 * 24 * 60 * 60 });
  response.headers.set("cache-control", "no-store");
  response.headers.set("referrer-policy", "no-referrer");
  return response;
}

// Pages only: the tRPC proxy and static assets never carry the token.
export const config = { matcher: ["/((?!trpc|_next/|icon\\.svg|favicon\\.ico).*)"] };
