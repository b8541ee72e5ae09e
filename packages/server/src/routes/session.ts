import { LoginRequest, Session } from "@iccid/core";
import { clientAddress } from "../http/client-address.js";
import { parseInput, setSessionCookie } from "../http/guards.js";
import { defineRoute, type Route } from "./route.js";

export const sessionRoutes: Route[] = [
  defineRoute({
    method: "post",
    path: "/api/v1/session",
    summary: "Sign in (sets the iccid_session cookie)",
    // No session yet, but signing in sets the cookie: a cross-site form must not sign a browser in.
    csrf: true,
    body: { schema: LoginRequest, required: true },
    response: { status: 201, description: "Signed in", schema: Session },
    problems: ["invalid_credentials", "rate_limited"],
    handler: (s) => async (ctx) => {
      const { email, password } = parseInput(LoginRequest, ctx.request.body);
      const { secret, active } = await s.sessions.login(email, password, clientAddress(ctx), ctx.get("User-Agent") || null);
      setSessionCookie(ctx, secret, s.sessions.expiresAt(active.session));
      ctx.body = s.sessions.toBody(active);
    },
  }),
  defineRoute({
    method: "get",
    path: "/api/v1/session",
    summary: "The current session",
    auth: { kind: "session" },
    response: { status: 200, description: "Session", schema: Session },
    handler: (s) => (ctx) => {
      ctx.body = s.sessions.toBody(ctx.state.session);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/api/v1/session",
    summary: "Sign out",
    auth: { kind: "session" },
    csrf: true,
    response: { status: 204, description: "Signed out" },
    handler: (s) => async (ctx) => {
      await s.sessions.logout(ctx.state.session, { ip: clientAddress(ctx), userAgent: ctx.get("User-Agent") || null });
      setSessionCookie(ctx, null);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/api/v1/sessions",
    summary: "Sign out everywhere: end every session of the account, this one included",
    auth: { kind: "session" },
    csrf: true,
    response: { status: 204, description: "Every session of the account ended" },
    handler: (s) => async (ctx) => {
      await s.sessions.logoutEverywhere(ctx.state.session, { ip: clientAddress(ctx), userAgent: ctx.get("User-Agent") || null });
      setSessionCookie(ctx, null);
    },
  }),
];
