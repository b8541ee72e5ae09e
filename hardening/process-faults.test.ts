import { createConnection } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses, ownerCredentials, startServerProcess, type ServerProcess } from "@iccid/server/testing";
import { nthIccid, send } from "./support.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-faults-"));
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

const json = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

async function login(url: string, email: string, password: string): Promise<string> {
  const r = await send(url, "POST", "/api/v1/session", { "content-type": "application/json" }, JSON.stringify({ email, password }));
  if (r.status !== 201) throw new Error(`login failed: ${r.status} ${r.text}`);
  return /iccid_session=[^;]+/.exec(r.headers["set-cookie"]!)![0];
}

/**
 * Sends lookups from `workers` loops; once `killAfter` of them got 200, SIGKILLs the server (the other
 * loops' requests are then in flight). Returns how many got 200 before the server was gone.
 */
async function loadThenKill(server: ServerProcess, key: string, workers: number, from: number, killAfter: number): Promise<number> {
  let ok = 0;
  let n = from;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (;;) {
        try {
          const r = await send(server.url, "POST", "/api/v1/iccid/lookup", json(key), JSON.stringify({ iccid: nthIccid(n++) }));
          if (r.status === 200 && ++ok === killAfter) server.child.kill("SIGKILL");
        } catch {
          return; // the server is gone
        }
      }
    }),
  );
  return ok;
}

describe("crash safety", () => {
  it("keeps every answered request, every key and session, and a sound database across SIGKILLs under load", async () => {
    const db = join(dir, "crash.db");
    let server: ServerProcess = await startServerProcess(db);
    const owner = await ownerCredentials(server);
    const cookie = await login(server.url, owner.email, owner.password);
    const kept = (await send(server.url, "POST", "/api/v1/keys", { cookie, "content-type": "application/json" }, JSON.stringify({ name: "kept" }))).body;
    const revoked = (await send(server.url, "POST", "/api/v1/keys", { cookie, "content-type": "application/json" }, JSON.stringify({ name: "revoked" }))).body;
    expect((await send(server.url, "DELETE", `/api/v1/keys/${revoked.id}`, { cookie })).status).toBe(204);
    const ended = await login(server.url, owner.email, owner.password);
    expect((await send(server.url, "DELETE", "/api/v1/session", { cookie: ended })).status).toBe(204);

    let answered = 0;
    const crashes = 3;
    for (let round = 0; round < crashes; round++) {
      // Killed after a count of answers, not after a time: a busy machine answers fewer per second.
      answered += await loadThenKill(server, owner.key, 8, round * 1_000_000, 50);
      expect(await server.exited).toBeNull(); // killed, not exited
      server = await startServerProcess(db);
      expect(server.stderr()).not.toMatch(/API key/); // no second bootstrap
    }

    const usage = await send(server.url, "GET", "/api/v1/usage", { authorization: `Bearer ${owner.key}` });
    expect(answered).toBeGreaterThan(100);
    // Every 200 was committed before it was sent; a request killed between commit and answer may count too.
    expect(usage.body.totals.requests).toBeGreaterThanOrEqual(answered);
    expect(usage.body.totals.requests).toBeLessThanOrEqual(answered + 8 * crashes);
    expect(usage.body.quota.used).toBe(usage.body.totals.lookups);

    // Nothing lost, nothing resurrected.
    expect((await send(server.url, "POST", "/api/v1/iccid/lookup", json(kept.key), JSON.stringify({ iccid: nthIccid(1) }))).status).toBe(200);
    expect((await send(server.url, "POST", "/api/v1/iccid/lookup", json(revoked.key), JSON.stringify({ iccid: nthIccid(1) }))).body.code).toBe("revoked_api_key");
    expect((await send(server.url, "GET", "/api/v1/session", { cookie })).status).toBe(200);
    expect((await send(server.url, "GET", "/api/v1/session", { cookie: ended })).status).toBe(401);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const sqlite = new Database(db, { readonly: true });
    expect(sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    sqlite.close();
    console.log(`crash safety: ${crashes} SIGKILLs survived, ${answered} answered lookups, ${usage.body.totals.requests} metered, 0 lost`);
  });
});

/** Writes raw HTTP on one connection; resolves with everything the server sent until it closed. */
function rawConnection(port: number) {
  const socket = createConnection({ port, host: "127.0.0.1" });
  let received = "";
  socket.on("data", (d) => (received += d));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  /** Resolves once the server has sent `text` on this connection. */
  const sent = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!received.includes(text)) return;
        socket.off("data", check);
        resolve();
      };
      socket.on("data", check);
      check();
    });
  return { socket, closed, sent, ready: new Promise((resolve) => socket.once("connect", resolve)) };
}

describe("graceful shutdown", () => {
  it("answers new requests 503 while in-flight ones finish, then closes the port and exits 0", async () => {
    const server = await startServerProcess(join(dir, "drain.db"));
    const { key } = await ownerCredentials(server);
    const body = JSON.stringify({ iccid: "89441000000000000018" });
    // "Expect: 100-continue" makes the server say when it has taken a request in (its 100 Continue).
    const head = (length: number) =>
      `POST /api/v1/iccid/lookup HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

    // Ten requests in flight: headers taken in and half a body sent when SIGTERM arrives.
    const inflight = Array.from({ length: 10 }, () => rawConnection(server.port));
    await Promise.all(inflight.map((c) => c.ready));
    for (const c of inflight) c.socket.write(head(body.length) + body.slice(0, 10));
    await Promise.all(inflight.map((c) => c.sent("HTTP/1.1 100 Continue")));
    server.child.kill("SIGTERM");
    await server.waitForOutput("stdout", /"msg":"draining"/);

    // While those are in flight the port stays open, and a new request is refused with 503.
    const refused = await send(server.url, "GET", "/healthz");
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe("unavailable");
    expect(refused.headers.connection).toBe("close");

    // The rest of each body: every request that was in flight is answered in full, then its connection ends.
    for (const c of inflight) c.socket.write(body.slice(10));
    const transcripts = await Promise.all(inflight.map((c) => c.closed));
    for (const t of transcripts) {
      expect([...t.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]))).toEqual([100, 200]);
      expect(t).toMatch(/"iccid":"89441000000000000018"/);
    }

    // New connections are refused once the port is closed, and the process exits cleanly.
    expect(await server.exited).toBe(0);
    await expect(send(server.url, "GET", "/healthz")).rejects.toThrow();
    expect(server.stdout()).toMatch(/"msg":"stopped"/);
  });
});
