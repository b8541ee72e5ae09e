// The account page's side of the API: a session signed in as the page signs in, and the requests the page
// makes with it (the browser adds Origin and Sec-Fetch-Site, which the server's CSRF rule reads).
import { createHash } from "node:crypto";

/** The headers of the page's requests with the session `cookie`. */
export function pageHeaders(server, cookie) {
  return { cookie, origin: server.url, "sec-fetch-site": "same-origin", accept: "application/json" };
}

/** Signs `account` in on `server` (POST /api/v1/session); resolves with the session's cookie. */
export async function signIn(server, account) {
  const res = await fetch(`${server.url}/api/v1/session`, {
    method: "POST",
    headers: { ...pageHeaders(server, ""), "content-type": "application/json" },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (res.status !== 201) throw new Error(`${server.build.name}: sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("iccid_session="));
  if (!cookie) throw new Error(`${server.build.name}: sign-in set no iccid_session cookie`);
  return cookie;
}

/** A JSON request of the page with the session `cookie`; resolves with the answer's body. */
export async function pageRequest(server, cookie, method, path, body) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...pageHeaders(server, cookie), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${server.build.name}: ${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * The Idempotency-Key the page sends with an uploaded chunk: made from the chunk's first row and the
 * ICCIDs it sends, as the page's upload worker makes it.
 */
export function chunkKey(start, iccids) {
  return `page-batch-${createHash("sha256").update(`page\n${start}\n${JSON.stringify(iccids)}`).digest("base64url")}`;
}
