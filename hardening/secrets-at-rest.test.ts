import { createHash } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { startTestServer, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "./support.js";

// The database file (and its WAL) must hold no API key, session secret or password in clear: only
// SHA-256 of keys and session secrets, and scrypt hashes of passwords.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe("secrets at rest", () => {
  it("keeps no key, session secret or password in clear in the SQLite files", async () => {
    const json = { "content-type": "application/json" };
    const user = await server.createAccount({ password: "a-long-and-memorable-password" });
    const secrets: string[] = [server.owner.apiKey, server.owner.password, user.apiKey, user.password];
    const login = await send(server.url, "POST", "/api/v1/session", json, JSON.stringify({ email: user.email, password: user.password }));
    const cookieSecret = /iccid_session=([^;]+)/.exec(login.headers["set-cookie"]!)![1]!;
    secrets.push(cookieSecret);
    const cookie = `iccid_session=${cookieSecret}`;
    for (let i = 0; i < 3; i++) {
      const created = await send(server.url, "POST", "/api/v1/keys", { ...json, cookie }, JSON.stringify({ name: `k${i}` }));
      secrets.push(created.body.key);
      await send(server.url, "POST", "/api/v1/iccid/lookup", { ...json, authorization: `Bearer ${created.body.key}` }, JSON.stringify({ iccid: "89441000000000000018" }));
    }

    const path = (server.store as unknown as { path: string }).path;
    const files = [path, `${path}-wal`].filter(existsSync);
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    expect(bytes.length).toBeGreaterThan(4096);
    for (const secret of secrets) {
      expect(bytes.includes(secret), `clear secret ${secret.slice(0, 8)}… in the database`).toBe(false);
      // Not even the random part of a key without its prefix.
      if (secret.startsWith("iccid_")) expect(bytes.includes(secret.slice(6, 28))).toBe(false);
    }
    // What is stored instead: the SHA-256 of each key and session secret, and scrypt password hashes.
    expect(bytes.includes(createHash("sha256").update(user.apiKey).digest("hex"))).toBe(true);
    expect(bytes.includes(createHash("sha256").update(cookieSecret).digest("hex"))).toBe(true);
    expect(bytes.includes("scrypt$")).toBe(true);
  });
});
