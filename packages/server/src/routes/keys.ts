import { CreatedKey, CreateKeyRequest, KeyList, RollKeyRequest, type KeyRecord } from "@iccid/core";
import { parseInput } from "../http/guards.js";
import { sessionOrigin } from "./audit-origin.js";
import { defineRoute, type Route } from "./route.js";

function withoutSecret(created: unknown): KeyRecord {
  const { key: _secret, ...record } = created as CreatedKey;
  return record;
}

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
    description:
      "scopes defaults to every scope (lookup, usage:read); expires_at, if given, must be in the future and at " +
      "most 5 years ahead (422 invalid_input naming it otherwise).",
    auth: session,
    csrf: true,
    // A replay cannot show the secret, which is never stored: it answers the key's record without it.
    idempotency: { replayBody: withoutSecret },
    body: { schema: CreateKeyRequest, required: false },
    response: {
      status: 201,
      description: "Created. A replay (Idempotent-Replayed: true) answers the key's record without `key`: roll the key for a new secret",
      schema: CreatedKey,
    },
    handler: (s) => async (ctx) => {
      // The body is optional: no body means a key without a name, with every scope, that never expires.
      const { name, scopes, expires_at } = parseInput(CreateKeyRequest, ctx.request.body ?? {});
      ctx.body = await s.apiKeys.create(ctx.state.session.account.id, name ?? null, { scopes, expiresAt: expires_at, origin: sessionOrigin(ctx) });
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
      await s.apiKeys.revoke(ctx.state.session.account.id, ctx.params.id!, sessionOrigin(ctx));
    },
  }),
  defineRoute({
    method: "post",
    path: "/api/v1/keys/:id/roll",
    summary: "Roll an API key: a new key with its name and scopes; the old one works until the grace period ends",
    description:
      "Answers the new key, its secret shown once. The old key keeps working for grace_seconds (default 0), then " +
      "answers 401 expired_api_key. A revoked, expired or already rolled key is 409 key_not_rollable.",
    auth: session,
    csrf: true,
    body: { schema: RollKeyRequest, required: false },
    response: { status: 201, description: "The new key", schema: CreatedKey },
    problems: ["not_found", "key_not_rollable"],
    handler: (s) => async (ctx) => {
      const { grace_seconds } = parseInput(RollKeyRequest, ctx.request.body ?? {});
      ctx.body = await s.apiKeys.roll(ctx.state.session.account.id, ctx.params.id!, grace_seconds ?? 0, sessionOrigin(ctx));
    },
  }),
];
