import { apiSchemas, PROBLEM_CODES, type ProblemCode } from "@iccid/core";
import { z } from "zod";

type JsonObject = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string) => ({ "application/json": { schema: ref(id) } });

function problems(...codes: ProblemCode[]): Record<string, JsonObject> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) byStatus.set(PROBLEM_CODES[code].status, [...(byStatus.get(PROBLEM_CODES[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.join(", "), content: { "application/problem+json": { schema: ref("Problem") } } },
    ]),
  );
}

const BEARER: ProblemCode[] = ["missing_api_key", "invalid_api_key", "revoked_api_key", "no_active_subscription", "rate_limited"];
const BODY: ProblemCode[] = ["payload_too_large", "unsupported_media_type", "invalid_input", "malformed_json"];
const SESSION: ProblemCode[] = ["not_authenticated"];

function operation(summary: string, spec: JsonObject, codes: ProblemCode[]): JsonObject {
  const { responses, ...rest } = spec as { responses: JsonObject };
  return {
    summary,
    ...rest,
    responses: { ...responses, ...problems(...codes, "internal_error", "unavailable") },
  };
}

/** The OpenAPI 3.1 document, generated from the same zod schemas the server validates with. */
export function buildOpenApi(version: string): JsonObject {
  const { schemas } = z.toJSONSchema(apiSchemas, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _s, $id: _i, ...rest } = schema as JsonObject;
      return [id, rest];
    }),
  );
  const usageQuery = components.UsageQuery as { properties: Record<string, JsonObject>; required?: string[] };
  const usageParameters = Object.entries(usageQuery.properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    schema,
  }));
  const bearer = [{ apiKey: [] }];
  const cookie = [{ session: [] }];

  return {
    openapi: "3.1.0",
    info: {
      title: "ICCID Lookup API",
      version,
      description:
        "Decode and validate SIM card ICCIDs (ITU-T E.118). Errors are RFC 9457 problem details; see /docs/errors. " +
        "Every response carries X-Request-Id; Bearer responses carry the IETF RateLimit-Policy and RateLimit fields.",
    },
    servers: [{ url: "/" }],
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key: iccid_ followed by 28 base62 characters" },
        session: { type: "apiKey", in: "cookie", name: "iccid_session" },
      },
    },
    paths: {
      "/healthz": {
        get: operation("Liveness for load balancers", { security: [], responses: { "200": { description: "Up", content: json("Health") } } }, []),
      },
      "/readyz": {
        get: operation(
          "Readiness for load balancers: 503 while the store cannot take a write, 200 again once it can",
          { security: [], responses: { "200": { description: "Ready", content: json("Health") } } },
          [],
        ),
      },
      "/api/v1/openapi.json": {
        get: operation("This document", { security: [], responses: { "200": { description: "OpenAPI 3.1" } } }, []),
      },
      "/api/v1/iccid/lookup": {
        post: operation(
          "Look up one ICCID",
          {
            security: bearer,
            requestBody: { required: true, content: json("LookupRequest") },
            responses: { "200": { description: "The lookup result (valid may be false)", content: json("LookupResult") } },
          },
          [...BEARER, ...BODY, "quota_exceeded"],
        ),
      },
      "/api/v1/iccid/batch": {
        post: operation(
          "Look up 1 to 1000 ICCIDs",
          {
            security: bearer,
            description:
              "One result per input, in input order. A bad item never fails the request. summary.unique counts " +
              "distinct normalised ICCIDs plus distinct failed inputs; each distinct ICCID answered is one lookup.",
            requestBody: { required: true, content: json("BatchRequest") },
            responses: { "200": { description: "The batch result", content: json("BatchResult") } },
          },
          [...BEARER, ...BODY, "quota_exceeded"],
        ),
      },
      "/api/v1/usage": {
        get: operation(
          "Usage, quota and rate limit of the key's account",
          {
            security: bearer,
            description: "Spends neither quota nor rate limit.",
            parameters: usageParameters,
            responses: { "200": { description: "Usage", content: json("Usage") } },
          },
          [...BEARER, "invalid_input"],
        ),
      },
      "/api/v1/account/usage": {
        get: operation(
          "Usage, quota and rate limit of the signed-in account (for the account page)",
          {
            security: cookie,
            description:
              "The same report as GET /api/v1/usage, for a web session instead of an API key. Spends neither quota " +
              "nor rate limit, and also answers when the subscription is not active (the status is in the report).",
            parameters: usageParameters,
            responses: { "200": { description: "Usage", content: json("Usage") } },
          },
          [...SESSION, "invalid_input"],
        ),
      },
      "/api/v1/session": {
        post: operation(
          "Sign in (sets the iccid_session cookie)",
          {
            security: [],
            requestBody: { required: true, content: json("LoginRequest") },
            responses: { "201": { description: "Signed in", content: json("Session") } },
          },
          ["invalid_credentials", "rate_limited", "csrf_rejected", ...BODY],
        ),
        get: operation("The current session", { security: cookie, responses: { "200": { description: "Session", content: json("Session") } } }, SESSION),
        delete: operation("Sign out", { security: cookie, responses: { "204": { description: "Signed out" } } }, [...SESSION, "csrf_rejected"]),
      },
      "/api/v1/keys": {
        get: operation("List API keys", { security: cookie, responses: { "200": { description: "Keys", content: json("KeyList") } } }, SESSION),
        post: operation(
          "Create an API key (the secret is shown once)",
          {
            security: cookie,
            requestBody: { required: false, content: json("CreateKeyRequest") },
            responses: { "201": { description: "Created", content: json("CreatedKey") } },
          },
          [...SESSION, "csrf_rejected", ...BODY],
        ),
      },
      "/api/v1/keys/{id}": {
        delete: operation(
          "Revoke an API key (204 again if already revoked)",
          {
            security: cookie,
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "204": { description: "Revoked" } },
          },
          [...SESSION, "csrf_rejected", "not_found"],
        ),
      },
      "/": {
        get: operation("Redirects to the account page", { security: [], responses: { "302": { description: "To /account" } } }, []),
      },
      "/account": {
        get: operation(
          "The account page: sign in, manage API keys, see usage (HTML)",
          { security: [], responses: { "200": { description: "HTML, with a strict Content-Security-Policy" } } },
          [],
        ),
      },
      "/account/assets/{file}": {
        get: operation(
          "The account page's scripts and styles",
          {
            security: [],
            parameters: [{ name: "file", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "JavaScript or CSS" } },
          },
          ["not_found"],
        ),
      },
      "/docs/errors": {
        get: operation("Human page listing every error code", { security: [], responses: { "200": { description: "HTML" } } }, []),
      },
    },
  };
}
