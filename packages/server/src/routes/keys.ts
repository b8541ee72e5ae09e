import { CreatedKey, CreateKeyRequest, KeyList } from "@iccid/core";
import { parseInput, readJson } from "../http/json-body.js";
import { defineRoute, type Route } from "./route.js";

// API keys are managed from the account page: by session, and guarded against cross-site changes.
const session = { kind: "session" } as const;

export const keyRoutes: Route[] = [
  defineRoute({
    method: "get",
    path: "/api/v1/keys",
    summary: "List API keys",
    auth: session,
    response: { status: 200, description: "Keys", schema: KeyList },
    handler: (s) => async (ctx) => {
      ctx.body = { data: await s.apiKeys.list(ctx.state.session.account.id) };
    },
  }),
  defineRoute({
    method: "post",
    path: "/api/v1/keys",
    summary: "Create an API key (the secret is shown once)",
    auth: session,
    csrf: true,
    body: { schema: CreateKeyRequest, required: false },
    response: { status: 201, description: "Created", schema: CreatedKey },
    handler: (s) => async (ctx) => {
      // The body is optional: no body means a key without a name.
      const { name } = parseInput(CreateKeyRequest, (await readJson(ctx, s.settings.bodyLimitBytes)) ?? {});
      ctx.body = await s.apiKeys.create(ctx.state.session.account.id, name ?? null);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/api/v1/keys/:id",
    summary: "Revoke an API key (204 again if already revoked)",
    auth: session,
    csrf: true,
    response: { status: 204, description: "Revoked" },
    problems: ["not_found"],
    handler: (s) => async (ctx) => {
      // Revoking twice is fine (204 again); another account's key and an unknown id are both NotFound.
      await s.apiKeys.revoke(ctx.state.session.account.id, ctx.params.id!);
    },
  }),
];
