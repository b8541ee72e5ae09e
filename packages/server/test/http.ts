import { request } from "undici";

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

export interface Call {
  body?: unknown;
  /** Sent as-is (for malformed bodies); wins over `body`. */
  raw?: string | Buffer;
  key?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

/** One real HTTP call; JSON bodies are parsed whatever the status. */
export async function call(base: string, method: string, path: string, c: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.key !== undefined) headers.authorization = `Bearer ${c.key}`;
  if (c.cookie !== undefined) headers.cookie = c.cookie;
  let payload: string | Buffer | undefined = c.raw;
  if (payload === undefined && c.body !== undefined) {
    payload = JSON.stringify(c.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await request(`${base}${path}`, { method: method as "GET", headers, body: payload });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) flat[name] = Array.isArray(value) ? value.join("\n") : String(value);
  let body: unknown = undefined;
  if (/json/.test(flat["content-type"] ?? "") && text !== "") body = JSON.parse(text);
  return { status: res.statusCode, headers: flat, body, text };
}

/** The `iccid_session=…` pair from a Set-Cookie header. */
export function sessionCookie(answer: Answer): string {
  const match = /iccid_session=([^;]*)/.exec(answer.headers["set-cookie"] ?? "");
  if (!match) throw new Error("no session cookie set");
  return `iccid_session=${match[1]}`;
}
