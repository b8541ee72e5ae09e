import { apiSchemas, PROBLEM_CODES, type ProblemCode } from "@iccid/core";
import { z } from "zod";
import { routeProblems } from "./routes/guards.js";
import { openApiPath, pathParams, type Route, type RouteAuth, type WireSchema } from "./routes/route.js";
import { ROUTE_TABLE } from "./routes/table.js";

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

const SECURITY: Record<RouteAuth["kind"], JsonObject[]> = {
  none: [],
  apiKey: [{ apiKey: [] }],
  session: [{ session: [] }],
};

/** The id a wire schema is registered under in `apiSchemas`: the document refers to it by that id. */
function componentId(schema: WireSchema): string {
  const id = apiSchemas.get(schema)?.id;
  if (!id) throw new Error("a route refers to a schema that is not registered in apiSchemas");
  return id;
}

/** The query parameters of a route, one per property of its query schema's component. */
function queryParameters(components: JsonObject, schema: WireSchema): JsonObject[] {
  const query = components[componentId(schema)] as { properties: Record<string, JsonObject> };
  // Every query parameter is optional on the wire: the component describes the parsed query, in which a
  // field with a default counts as required.
  return Object.entries(query.properties).map(([name, property]) => ({ name, in: "query", required: false, schema: property }));
}

/** The Idempotency-Key header of the routes that take one (docs/api.md, "Idempotency"). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "The same request (account, route, key and body) within 24 hours of one that was charged is a replay: " +
    "run again on the current data, charged nothing, with Idempotent-Replayed: true (a created key's replay " +
    "answers its record without the secret)",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
};

function operation(route: Route, components: JsonObject): JsonObject {
  const parameters = [
    ...pathParams(route.path).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...(route.query ? queryParameters(components, route.query) : []),
    ...(route.idempotency ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  const { status, description, schema, csv } = route.response;
  const content = {
    ...(schema && json(componentId(schema))),
    ...(csv && { "text/csv": { schema: { type: "string", description: csv.description }, example: csv.rows.header } }),
  };
  return {
    summary: route.summary,
    // A key's scopes are not OAuth scopes, so the requirement stays empty; the description names the scope.
    // A route that takes either credential lists both requirements: either one satisfies it.
    security: route.auth.kind === "apiKey" && route.auth.session ? [...SECURITY.apiKey, ...SECURITY.session] : SECURITY[route.auth.kind],
    ...(route.auth.kind === "apiKey" && { "x-required-scope": route.auth.scope }),
    ...(route.description && { description: route.description }),
    ...(parameters.length > 0 && { parameters }),
    ...(route.body && { requestBody: { required: route.body.required, content: json(componentId(route.body.schema)) } }),
    responses: {
      [String(status)]: { description, ...(Object.keys(content).length > 0 && { content }) },
      ...problems(...routeProblems(route)),
    },
  };
}

/** The paths object: one operation per route, methods grouped under their path in table order. */
function paths(routes: readonly Route[], components: JsonObject): Record<string, JsonObject> {
  const byPath: Record<string, JsonObject> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    byPath[path] = { ...byPath[path], [route.method]: operation(route, components) };
  }
  return byPath;
}

/**
 * The OpenAPI 3.1 document, generated from the route table the server is routed by and the same zod
 * schemas it validates with.
 */
export function buildOpenApi(version: string): JsonObject {
  const { schemas } = z.toJSONSchema(apiSchemas, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _s, $id: _i, ...rest } = schema as JsonObject;
      return [id, rest];
    }),
  );
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
    paths: paths(ROUTE_TABLE, components),
  };
}
