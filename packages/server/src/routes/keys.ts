import { CreateKeyRequest } from "@iccid/core";
import { csrfGuard } from "../http/csrf.js";
import { parseInput, readJson } from "../http/json-body.js";
import { requireSession } from "../http/session-auth.js";
import type { ApiRouter, RouteServices } from "./context.js";

export function keyRoutes(router: ApiRouter, s: RouteServices): void {
  const csrf = csrfGuard();
  const session = requireSession(s.sessions);

  router.get("/api/v1/keys", session, async (ctx) => {
    ctx.body = { data: await s.apiKeys.list(ctx.state.session.account.id) };
  });

  router.post("/api/v1/keys", csrf, session, async (ctx) => {
    // The body is optional: no body means a key without a name.
    const { name } = parseInput(CreateKeyRequest, (await readJson(ctx, s.settings.bodyLimitBytes)) ?? {});
    ctx.status = 201;
    ctx.body = await s.apiKeys.create(ctx.state.session.account.id, name ?? null);
  });

  router.delete("/api/v1/keys/:id", csrf, session, async (ctx) => {
    // Revoking twice is fine (204 again); another account's key and an unknown id are both NotFound.
    await s.apiKeys.revoke(ctx.state.session.account.id, ctx.params.id!);
    ctx.status = 204;
  });
}
