import type { IncomingHttpHeaders } from "node:http";
import type { HttpResponse } from "./transport.js";

// A response's header fields as undici hands them over (lower-cased names; a repeated field as an array)
// turned into what the SDK exposes: one string per name, a repeated field's values joined with ", ", and
// the Set-Cookie values kept apart.

export function responseHeaders(fields: IncomingHttpHeaders): Pick<HttpResponse, "headers" | "setCookie"> {
  const headers: HttpResponse["headers"] = {};
  let setCookie: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const values = typeof value === "string" ? [value] : value;
    if (name === "set-cookie") setCookie = values;
    headers[name] = values.join(", ");
  }
  return { headers, setCookie };
}
