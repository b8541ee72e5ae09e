import { createHash } from "node:crypto";
import { luhnCheckDigit } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neverReading, rawJsonPost, startTestServer, type TestAccount, type TestServer } from "../test-support/index.js";
import type { Clock } from "../src/time.js";
import { eventually } from "./eventually.js";
import { call, sessionCookie, type Answer } from "./http.js";

// Idempotency-Key on the lookup, batch and key-creation routes (docs/api.md, "Idempotency"), on the store
// the project runs (SQLite, or PostgreSQL with Redis).

let server: TestServer;
let now = Date.now();
const clock: Clock = { now: () => now };
const withCheck = (body: string) => body + luhnCheckDigit(body);
const iccid = (n: number) => withCheck(`8944100000${String(n).padStart(8, "0")}`);

beforeAll(async () => {
  server = await startTestServer({ clock, plan: { rate_limit: 1_000 } });
  await server.setPlan("tiny", { rate_limit: 1_000, window_seconds: 60, monthly_lookups: 2 });
});
afterAll(async () => server?.close());

const lookup = (user: TestAccount, key: string | undefined, body: unknown) =>
  call(server.url, "POST", "/api/v1/iccid/lookup", { key: user.apiKey, body, ...(key === undefined ? {} : { headers: { "idempotency-key": key } }) });
const batch = (user: TestAccount, key: string, iccids: string[], accept = "application/json") =>
  call(server.url, "POST", "/api/v1/iccid/batch", { key: user.apiKey, body: { iccids }, headers: { "idempotency-key": key, accept } });
const usage = async (user: TestAccount) => (await call(server.url, "GET", "/api/v1/usage", { key: user.apiKey })).body;
const remaining = (a: Answer) => Number(/r=(\d+)/.exec(a.headers.ratelimit!)![1]);

/**
 * The store's name for a request's key: the first 16 bytes of SHA-256 over the account, the route and the
 * Idempotency-Key, each ended by a NUL (docs/api.md), worked out here apart from the server's own code.
 */
const proofKey = (accountId: string, route: string, key: string) =>
  createHash("sha256").update(`${accountId}\0${route}\0${key}\0`).digest().subarray(0, 16);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Idempotency-Key", () => {
  it("runs a repeated lookup again: the same answer, marked replayed, charged once but spending the rate limit", async () => {
    const user = await server.createAccount();
    const first = await lookup(user, "lookup-1", { iccid: iccid(1) });
    expect(first.status).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await lookup(user, "lookup-1", { iccid: iccid(1) });
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(remaining(again)).toBe(remaining(first) - 1);
    expect((await usage(user)).totals).toEqual({ requests: 1, lookups: 1 });
  });

  it("refuses the same key with another body with 422 idempotency_key_reused, running nothing", async () => {
    const user = await server.createAccount();
    expect((await lookup(user, "k", { iccid: iccid(2) })).status).toBe(200);
    const other = await lookup(user, "k", { iccid: iccid(3) });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("idempotency_key_reused");
    expect(other.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect((await usage(user)).totals).toEqual({ requests: 1, lookups: 1 });
  });

  it("refuses another body under a proven key with 422 idempotency_key_reused also when that body would charge nothing", async () => {
    const user = await server.createAccount();
    expect((await lookup(user, "used", { iccid: iccid(9) })).status).toBe(200);
    const malformed = await lookup(user, "used", { iccid: "not an iccid" });
    expect([malformed.status, malformed.body.code]).toEqual([422, "idempotency_key_reused"]);
    expect((await batch(user, "used-batch", [iccid(10)])).status).toBe(200);
    const failedItems = await batch(user, "used-batch", ["not an iccid", "nor this"]);
    expect([failedItems.status, failedItems.body.code]).toEqual([422, "idempotency_key_reused"]);
    expect((await usage(user)).totals).toEqual({ requests: 2, lookups: 2 });
  });

  it("scopes a key by account and by route", async () => {
    const [a, b] = [await server.createAccount(), await server.createAccount()];
    expect((await lookup(a, "shared", { iccid: iccid(4) })).status).toBe(200);
    const other = await lookup(b, "shared", { iccid: iccid(4) });
    expect(other.status).toBe(200);
    expect(other.headers["idempotent-replayed"]).toBeUndefined();
    const onBatch = await batch(a, "shared", [iccid(4)]);
    expect(onBatch.status).toBe(200);
    expect(onBatch.headers["idempotent-replayed"]).toBeUndefined();
    expect((await usage(a)).totals).toEqual({ requests: 2, lookups: 2 });
  });

  it("replays an EID batch, charging it once", async () => {
    const user = await server.createAccount();
    const eids = ["89049032123451234512345678901235", "89001039240180124400000000000157", "not an eid"];
    const send = () => call(server.url, "POST", "/api/v1/eid/batch", { key: user.apiKey, body: { eids }, headers: { "idempotency-key": "eids" } });
    const first = await send();
    expect(first.status).toBe(200);
    const again = await send();
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    expect((await usage(user)).totals).toEqual({ requests: 1, lookups: 2 });
  });

  it("replays a batch byte for byte, as JSON and as CSV, charging it once", async () => {
    const user = await server.createAccount();
    const iccids = Array.from({ length: 300 }, (_, i) => iccid(1000 + i));
    const json = await batch(user, "b-json", iccids);
    const jsonAgain = await batch(user, "b-json", iccids);
    expect(jsonAgain.headers["idempotent-replayed"]).toBe("true");
    expect(jsonAgain.text).toBe(json.text);
    const csv = await batch(user, "b-csv", iccids, "text/csv");
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const csvAgain = await batch(user, "b-csv", iccids, "text/csv");
    expect(csvAgain.status).toBe(200);
    expect(csvAgain.headers["idempotent-replayed"]).toBe("true");
    expect(csvAgain.headers["content-type"]).toBe(csv.headers["content-type"]);
    expect(csvAgain.text).toBe(csv.text);
    // A replay runs again: it answers in the form its own Accept asks for, uncharged.
    const jsonAsCsv = await batch(user, "b-json", iccids, "text/csv");
    expect([jsonAsCsv.headers["idempotent-replayed"], jsonAsCsv.headers["content-type"]]).toEqual(["true", csv.headers["content-type"]]);
    expect(jsonAsCsv.text).toBe(csv.text);
    expect((await usage(user)).totals).toEqual({ requests: 2, lookups: 600 });
  });

  it("answers 409 idempotency_key_in_use with Retry-After while the first request is being answered", async () => {
    const user = await server.createAccount();
    expect((await lookup(user, undefined, { iccid: iccid(4999) })).status).toBe(200); // the key's first use writes too
    const request = { iccid: iccid(5) };
    // The first request claims its key and runs; its charge waits on the store.
    const release = await server.holdCharges();
    let first: Promise<Answer> | undefined;
    try {
      first = lookup(user, "in-flight", request);
      await pause(300);
      const duplicate = await lookup(user, "in-flight", request);
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.code).toBe("idempotency_key_in_use");
      expect(duplicate.headers["retry-after"]).toBe("1");
      const other = await lookup(user, "in-flight", { iccid: iccid(6) });
      expect([other.status, other.body.code]).toEqual([422, "idempotency_key_reused"]);
    } finally {
      await release();
    }
    const ran = await first!;
    expect([ran.status, ran.headers["idempotent-replayed"]]).toEqual([200, undefined]);
    const afterwards = await lookup(user, "in-flight", request);
    expect([afterwards.status, afterwards.headers["idempotent-replayed"]]).toEqual([200, "true"]);
    expect(afterwards.text).toBe(ran.text);
    expect((await usage(user)).totals).toEqual({ requests: 2, lookups: 2 });
  });

  it("answers a replay uncharged even once the quota is spent", async () => {
    const user = await server.createAccount({ plan: "tiny" });
    expect((await lookup(user, "q-1", { iccid: iccid(20) })).status).toBe(200);
    expect((await lookup(user, "q-2", { iccid: iccid(21) })).status).toBe(200);
    expect((await lookup(user, "q-3", { iccid: iccid(22) })).body.code).toBe("quota_exceeded");
    const replay = await lookup(user, "q-1", { iccid: iccid(20) });
    expect([replay.status, replay.headers["idempotent-replayed"]]).toEqual([200, "true"]);
    expect((await usage(user)).totals).toEqual({ requests: 2, lookups: 2 });
  });

  it("keeps nothing of a batch that charged nothing: every item failed, so asked again it runs again", async () => {
    const user = await server.createAccount();
    const bad = Array.from({ length: 50 }, (_, i) => `not an iccid ${i}`);
    const first = await batch(user, "all-bad", bad);
    expect([first.status, first.headers["idempotent-replayed"]]).toEqual([200, undefined]);
    const again = await batch(user, "all-bad", bad);
    expect([again.status, again.headers["idempotent-replayed"]]).toEqual([200, undefined]);
    expect(again.text).toBe(first.text);
    expect(await server.store.idempotency.findProof(proofKey(user.id, "/api/v1/iccid/batch", "all-bad"), 0)).toBeUndefined();
    expect((await usage(user)).totals.lookups).toBe(0);
  });

  it("proves a request whose client went away while it ran: the retry is its replay, charged once", async () => {
    const user = await server.createAccount();
    expect((await lookup(user, undefined, { iccid: iccid(7999) })).status).toBe(200); // the key's first use writes too
    const iccids = Array.from({ length: 1000 }, (_, i) => iccid(7000 + i));
    const request = rawJsonPost("/api/v1/iccid/batch", user.apiKey, JSON.stringify({ iccids }), { "Idempotency-Key": "gone" });
    // The whole request, then, once the server holds it, the connection reset while its charge waits.
    const release = await server.holdCharges();
    try {
      const { socket, ended } = await neverReading(server.url, request);
      await pause(300);
      socket.resetAndDestroy();
      await ended;
      // Time for the server to see the connection go: nothing it shows tells when (it logs and counts the
      // request only once it is answered), so this is a pause.
      await pause(300);
    } finally {
      await release();
    }
    await pause(500); // on SQLite the charge waited in the busy retry's pause: it is made within it
    let retry: Answer | undefined;
    await eventually(async () => {
      retry = await batch(user, "gone", iccids);
      // Until the first request's charge is made, its claim answers 409.
      expect(retry.status, "the first request is still being answered: its claim answers 409").not.toBe(409);
    });
    expect([retry!.status, retry!.headers["idempotent-replayed"]]).toEqual([200, "true"]);
    expect(JSON.parse(retry!.text).results).toHaveLength(1000); // the replay ran whole
    expect((await usage(user)).totals).toEqual({ requests: 2, lookups: 1001 });
  });

  it("runs concurrent duplicates once: every other answer is a replay or a 409", async () => {
    const user = await server.createAccount();
    const iccids = Array.from({ length: 1000 }, (_, i) => iccid(5000 + i));
    const answers = await Promise.all(Array.from({ length: 12 }, () => batch(user, "race", iccids)));
    const ran = answers.filter((a) => a.status === 200 && a.headers["idempotent-replayed"] === undefined);
    expect(ran).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 200) expect(a.text).toBe(ran[0]!.text);
      else expect([a.status, a.body.code]).toEqual([409, "idempotency_key_in_use"]);
    }
    expect((await usage(user)).totals).toEqual({ requests: 1, lookups: 1000 });
  });

  it("keeps no answer that did nothing: a refused body or quota frees the key for the same request", async () => {
    const user = await server.createAccount({ plan: "tiny" });
    const bad = await lookup(user, "retry-me", { iccid: "not an iccid" });
    expect([bad.status, bad.body.code]).toEqual([422, "invalid_input"]);
    const good = await lookup(user, "retry-me", { iccid: iccid(6) });
    expect([good.status, good.headers["idempotent-replayed"]]).toEqual([200, undefined]);

    const over = await batch(user, "over-quota", [iccid(7), iccid(8)]);
    expect([over.status, over.body.code]).toEqual([429, "quota_exceeded"]);
    // Run again, not replayed: a kept 429 would come back with Idempotent-Replayed.
    const again = await batch(user, "over-quota", [iccid(7), iccid(8)]);
    expect([again.status, again.body.code, again.headers["idempotent-replayed"]]).toEqual([429, "quota_exceeded", undefined]);
    expect((await usage(user)).totals).toEqual({ requests: 1, lookups: 1 });
  });

  it("refuses a malformed key with 400 invalid_idempotency_key naming the header, before running anything", async () => {
    const user = await server.createAccount();
    for (const key of ["", "x".repeat(256)]) {
      const r = await lookup(user, key, { iccid: iccid(9) });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("invalid_idempotency_key");
      expect(r.body.detail).toContain("Idempotency-Key");
    }
    expect((await lookup(user, "x".repeat(255), { iccid: iccid(9) })).status).toBe(200);
    expect((await lookup(user, " ~printable ASCII~ ", { iccid: iccid(10) })).status).toBe(200);
    expect((await usage(user)).totals).toEqual({ requests: 2, lookups: 2 });
  });

  it("forgets an answer after 24 hours: the key may then be used for another request", async () => {
    const user = await server.createAccount();
    expect((await lookup(user, "daily", { iccid: iccid(11) })).status).toBe(200);
    now += 23 * 3_600_000;
    expect((await lookup(user, "daily", { iccid: iccid(12) })).body.code).toBe("idempotency_key_reused");
    now += 1 * 3_600_000 + 1_000;
    const later = await lookup(user, "daily", { iccid: iccid(12) });
    expect(later.status).toBe(200);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("deletes every account's proofs past 24 hours, swept by a later request of any account", async () => {
    const [gone, active] = [await server.createAccount(), await server.createAccount()];
    expect((await lookup(gone, "left-behind", { iccid: iccid(13) })).status).toBe(200);
    const left = proofKey(gone.id, "/api/v1/iccid/lookup", "left-behind");
    expect(await server.store.idempotency.findProof(left, 0)).toBeDefined();
    now += 24 * 3_600_000 + 61_000;
    expect((await lookup(active, "fresh", { iccid: iccid(14) })).status).toBe(200);
    // The sweep runs beside the request that started it.
    await eventually(async () => expect(await server.store.idempotency.findProof(left, 0)).toBeUndefined());
    expect((await lookup(active, "fresh", { iccid: iccid(14) })).headers["idempotent-replayed"]).toBe("true");
  });

  it("replays a key's creation as 201 with its record and no secret; one key exists", async () => {
    const user = await server.createAccount();
    const cookie = sessionCookie(await call(server.url, "POST", "/api/v1/session", { body: { email: user.email, password: user.password } }));
    const create = () => call(server.url, "POST", "/api/v1/keys", { cookie, body: { name: "ci" }, headers: { "idempotency-key": "make-ci" } });
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.body.key).toMatch(/^iccid_/);
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const { key: _secret, ...record } = first.body;
    expect(again.body).toEqual(record);
    expect(again.text).not.toContain(first.body.key);
    // What the store keeps has no secret either.
    const kept = await server.store.idempotency.findProof(proofKey(user.id, "/api/v1/keys", "make-ci"), 0);
    expect(JSON.parse(kept!.answer!)).toEqual(record);
    expect(JSON.stringify(kept)).not.toContain(first.body.key);
    const keys = (await call(server.url, "GET", "/api/v1/keys", { cookie })).body.data;
    expect(keys.filter((k: { name: string }) => k.name === "ci")).toHaveLength(1);
  });
});
