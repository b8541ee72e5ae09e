import { util } from "undici";
import type { ResponseHeaders } from "./errors.js";

// An answer's header fields as undici's dispatcher hands them over (a flat [name, value, name, value, …]
// list of Buffers, or strings from a mock dispatcher), turned in one pass into what the SDK exposes:
// lower-cased names, a repeated field's values joined with ", ", and the Set-Cookie values kept apart.

type RawValue = Buffer | string | (Buffer | string)[];

export interface AnswerHeaders {
  headers: ResponseHeaders;
  setCookie: string[];
}

function latin1(value: Buffer | string): string {
  return typeof value === "string" ? value : value.toString("latin1");
}

export function answerHeaders(raw: readonly RawValue[]): AnswerHeaders {
  const headers: ResponseHeaders = {};
  const setCookie: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = util.headerNameToString(raw[i] as Buffer | string);
    const rawValue = raw[i + 1]!;
    const values = Array.isArray(rawValue) ? rawValue.map(latin1) : undefined; // only from a mock dispatcher
    const value = values ? values.join(", ") : latin1(rawValue as Buffer | string);
    if (name === "set-cookie") setCookie.push(...(values ?? [value]));
    // hasOwn: a field named like an Object.prototype member ("constructor") is not a repeat.
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
  }
  return { headers, setCookie };
}
