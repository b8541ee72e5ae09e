// The web session lives in the `iccid_session` cookie. A Node client has no cookie jar, so the client
// keeps this one cookie itself: taken from `Set-Cookie` on any 2xx response, cleared when the server expires
// it (logout answers with an empty value / Max-Age=0), and sent only on the session endpoints.

export const SESSION_COOKIE = "iccid_session";

/** The session value a `Set-Cookie` field sets: a string, `null` when it clears the cookie, undefined when it is about another cookie. */
export function sessionFromSetCookie(field: string, now = Date.now()): string | null | undefined {
  const [pair, ...attributes] = field.split(";");
  const eq = pair?.indexOf("=") ?? -1;
  if (!pair || eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) return undefined;
  const value = pair.slice(eq + 1).trim();
  for (const attribute of attributes) {
    const [rawName = "", rawValue = ""] = attribute.split("=", 2).map((part) => part.trim());
    const name = rawName.toLowerCase();
    if (name === "max-age" && Number(rawValue) <= 0) return null;
    if (name === "expires" && Date.parse(rawValue) <= now) return null;
  }
  return value === "" ? null : value;
}

export class SessionCookie {
  constructor(public value: string | undefined) {}

  /** Applies the `Set-Cookie` fields of a response. */
  update(setCookie: readonly string[]): void {
    for (const field of setCookie) {
      const next = sessionFromSetCookie(field);
      if (next !== undefined) this.value = next ?? undefined;
    }
  }

  header(): string | undefined {
    return this.value === undefined ? undefined : `${SESSION_COOKIE}=${this.value}`;
  }
}
