import type { IncomingMessage } from "node:http";
import type { Context } from "koa";
import type { z } from "zod";
import { InvalidInput } from "../domain/refusals.js";
import { fieldIssues, WIRE_PARSE } from "../domain/schema-issues.js";
import { HttpProblem, jsonPointer } from "./problem.js";

/**
 * Reads a JSON body with a byte limit: 415 for another media type, 413 past the limit (before reading
 * when Content-Length says so), 422 `malformed_json` when it does not parse. An empty body is `undefined`.
 */
export async function readJson(ctx: Context, limitBytes: number): Promise<unknown> {
  const text = readBodies.has(ctx.req) ? readBodies.get(ctx.req) : await bodyText(ctx, limitBytes);
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpProblem("malformed_json", "The body is not valid JSON.");
  }
}

// Bodies read before the handler (an Idempotency-Key's request is compared by its body), by request.
const readBodies = new WeakMap<IncomingMessage, string | undefined>();

/**
 * The JSON body's text read ahead of the handler, with readJson's checks (415, 413); `undefined` when
 * there is none. readJson then parses this text rather than reading the request again.
 */
export async function readBodyAhead(ctx: Context, limitBytes: number): Promise<string | undefined> {
  const text = await bodyText(ctx, limitBytes);
  readBodies.set(ctx.req, text);
  return text;
}

async function bodyText(ctx: Context, limitBytes: number): Promise<string | undefined> {
  const length = ctx.request.length;
  const hasBody = (length !== undefined && length > 0) || ctx.get("Transfer-Encoding") !== "";
  if (!hasBody) return undefined;
  // The exact header most clients send is checked without parsing it; anything else goes through type-is.
  const type = ctx.get("Content-Type");
  if (type !== "application/json" && !ctx.is("application/json")) {
    throw new HttpProblem("unsupported_media_type", "The body must be JSON, sent with Content-Type: application/json.");
  }
  if (length !== undefined && length > limitBytes) throw tooLarge(limitBytes);
  return readText(ctx.req, limitBytes);
}

/** The body as text, refusing past `limitBytes`. Plain stream events: this runs on every request. */
function readText(req: IncomingMessage, limitBytes: number): Promise<string> | string {
  // A small body has usually arrived whole with the head, by the time the key was checked: it is taken
  // as it lies in the stream's buffer, with no listeners added and removed.
  if (req.complete && req.readableLength > 0 && req.readableLength <= limitBytes) {
    // Unsized, read() hands over everything buffered, as one Buffer.
    const whole = req.read() as Buffer | null;
    if (whole !== null) return whole.toString("utf8");
  }
  // A request whose client went away before sending it whole never ends: say so at once.
  if (req.destroyed) throw new ClientGone();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        // Answer 413 now and discard the rest as it arrives (destroying the request reset the connection
        // before any answer); requestTimeout bounds a body that never ends.
        cleanup();
        req.resume();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, size).toString("utf8"));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(req.complete ? error : new ClientGone());
    };
    const onClose = () => {
      cleanup();
      reject(new ClientGone());
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** The client closed its connection before its request arrived in full: nobody is left to answer. */
export class ClientGone extends Error {
  constructor() {
    super("the client closed the connection before sending its request in full");
    this.name = "ClientGone";
  }
}

function tooLarge(limitBytes: number): HttpProblem {
  return new HttpProblem("payload_too_large", `The body is over the ${Math.round(limitBytes / 1024)} KiB limit.`);
}

/** Parses a value with a wire schema, or refuses with `InvalidInput` naming every offending field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: "body" | "query" = "body"): z.output<S> {
  const result = schema.safeParse(value, WIRE_PARSE);
  if (result.success) return result.data;
  const issues = fieldIssues(result.error.issues);
  const first = issues[0]!;
  // An issue about the whole value (no path) is named after what was read: "the body", "the query".
  const field = first.field.length === 0 ? `the ${what}` : jsonPointer(first.field).slice(1).replace(/\//g, ".");
  throw new InvalidInput([first, ...issues.slice(1)], `${field}: ${first.detail}`);
}
