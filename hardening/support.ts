import { luhnCheckDigit, PROBLEM_CODES, type ProblemCode } from "@iccid/core";
import { request } from "undici";

export const SEED = Number(process.env.HARDENING_SEED ?? "20261121");

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

export async function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Answer> {
  const res = await request(`${base}${path}`, { method: method as "GET", headers, body, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join("\n") : String(v);
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: flat, text, body: parsed };
}

/** Runs `tasks` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await task(items[i]!, i);
      }
    }),
  );
}

/** Why an error answer breaks the contract, or undefined when it keeps it. */
export function problemViolation(a: Answer): string | undefined {
  if (a.status >= 500) return `status ${a.status}`;
  if (a.status < 400) return undefined;
  if (!/^application\/problem\+json/.test(a.headers["content-type"] ?? "")) return `content-type ${a.headers["content-type"]}`;
  const code = a.body?.code as ProblemCode | undefined;
  if (!code || !(code in PROBLEM_CODES)) return `unknown code ${String(code)}`;
  if (PROBLEM_CODES[code].status !== a.status) return `code ${code} with status ${a.status}`;
  if (a.body.request_id !== a.headers["x-request-id"]) return "request_id differs from X-Request-Id";
  return undefined;
}

/** What must never appear in an answer or a log line. */
export const LEAK = /\bat \S+\.(ts|js|mjs):\d+|node_modules|SQLITE_|\bSELECT\b|\bINSERT\b|\bUPDATE\b .* SET|stack/;

/** The n-th of a series of distinct valid 20-digit ICCIDs (Vodafone UK prefix). */
export function nthIccid(n: number): string {
  const body = `894410${String(n).padStart(13, "0")}`;
  return body + luhnCheckDigit(body);
}
