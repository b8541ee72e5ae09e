import { LoginRequest } from "@iccid/core";
import { csrfGuard } from "../http/csrf.js";
import { parseInput, readJson } from "../http/json-body.js";
import { requireSession, setSessionCookie } from "../http/session-auth.js";
import type { ApiRouter, RouteServices } from "./context.js";

export function sessionRoutes(router: ApiRouter, s: RouteServices): void {
  const csrf = csrfGuard();
  const session = requireSession(s.sessions);

  router.post("/api/v1/session", csrf, async (ctx) => {
    const { email, password } = parseInput(LoginRequest, await readJson(ctx, s.settings.bodyLimitBytes));
    const { secret, active } = await s.sessions.login(email, password, ctx.ip);
    setSessionCookie(ctx, secret, s.sessions.expiresAt(active.session));
    ctx.status = 201;
    ctx.body = s.sessions.toBody(active);
  });

  router.get("/api/v1/session", session, (ctx) => {
    ctx.body = s.sessions.toBody(ctx.state.session);
  });

  router.delete("/api/v1/session", csrf, session, async (ctx) => {
    await s.sessions.logout(ctx.state.session);
    setSessionCookie(ctx, null);
    ctx.status = 204;
  });
}
