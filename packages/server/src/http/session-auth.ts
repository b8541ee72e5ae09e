import type { Context, Middleware } from "koa";
import type { Sessions } from "../services/sessions.js";
import { HttpProblem } from "./problem.js";
import type { AppState } from "./state.js";

export const SESSION_COOKIE = "iccid_session";

/** Requires a live web session (the key endpoints). */
export function requireSession(sessions: Sessions): Middleware<AppState> {
  return async (ctx, next) => {
    const active = await sessions.resolve(ctx.cookies.get(SESSION_COOKIE));
    if (!active) throw new HttpProblem("not_authenticated", "Sign in first: there is no session, or it expired.");
    ctx.state.session = active;
    await next();
  };
}

/** Sets or clears the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure on HTTPS. */
export function setSessionCookie(ctx: Context, secret: string | null, expiresAt?: number): void {
  ctx.cookies.set(SESSION_COOKIE, secret ?? "", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: ctx.secure,
    overwrite: true,
    ...(secret === null ? { expires: new Date(0), maxAge: 0 } : { expires: new Date(expiresAt!) }),
  });
}
