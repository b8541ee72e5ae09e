import { csvLine, isWellFormedApiKey, luhnCheckDigit, LOOKUP_ROW_COLUMNS, lookupRowCsv, rowOutcome } from "@iccid/core";
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  InsufficientScopeError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  type BatchAllProgress,
} from "../src/index.js";
import { iccidFor } from "./iccids.js";
import { expectProblem, failure, useRealServer } from "./real-server.js";

// Every SDK method against the real server, with the errors that belong to each method's own flow.
// The remaining problem codes are in real-server-errors.test.ts.

const real = useRealServer();
const withCheck = (body: string) => body + luhnCheckDigit(body);
const client = real.client;

describe("iccid", () => {
  it("looks up one ICCID as written", async () => {
    const result = await client().iccid.lookup("8944 1000 0000 0000 0018");
    expect(result).toMatchObject({
      iccid: "89441000000000000018",
      input: "8944 1000 0000 0000 0018",
      valid: true,
      length: 20,
      checks: { format: true, luhn: "valid" },
      check_digit: "8",
      mii: "89",
      calling_code: "44",
      country: { iso2: "GB", name: "United Kingdom" },
    });
  });

  it("names no country under an international code, the issuer's own on issuer.country, and both readings of ambiguous digits", async () => {
    const onece = await client().iccid.lookup("89882806660004909182");
    expect(onece.calling_code).toBe("882");
    expect(onece.country).toBeNull();
    expect(onece.issuer?.country).toEqual({ iso2: "DE", name: "Germany" });
    const [ambiguous] = (await client().iccid.batch([withCheck("8931038012345678901")])).results;
    if (!ambiguous?.ok) throw new Error("expected a result");
    const warning = ambiguous.result.warnings.find((w) => w.code === "ambiguous_numbering");
    expect(warning?.candidates?.map((c) => [c.country.iso2, c.issuer?.name ?? null])).toEqual([
      ["US", "AT&T"],
      ["NL", "Blyk N.V."],
    ]);
    expect(ambiguous.result.country?.iso2).toBe("US");
  });

  it("answers a wrong check digit with valid: false, not an error", async () => {
    const result = await client().iccid.lookup("89441000000000000017");
    expect(result.valid).toBe(false);
    expect(result.checks.luhn).toBe("invalid");
  });

  it("maps a grammar failure to UnprocessableEntityError 422 invalid_input pointing at /iccid", async () => {
    const error = (await failure(client().iccid.lookup("12AB"))) as UnprocessableEntityError;
    expectProblem(error, UnprocessableEntityError, 422, "invalid_input");
    expect(error.errors[0]?.pointer).toBe("/iccid");
  });

  it("batches, reporting bad items in place", async () => {
    const answer = await client().iccid.batch(["89441000000000000018", "12AB", "89441000000000000018"]);
    expect(answer.results.map((r) => [r.index, r.ok])).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
    expect(answer.results[1]).toMatchObject({ ok: false, input: "12AB", error: { code: "invalid_mii" } });
    expect(answer.summary).toMatchObject({ total: 3, ok: 2, failed: 1, unique: 2 });
  });

  it("maps a structural batch failure to 422 with its pointer", async () => {
    const empty = (await failure(client().iccid.batch([]))) as UnprocessableEntityError;
    expectProblem(empty, UnprocessableEntityError, 422, "invalid_input");
    expect(empty.errors[0]?.pointer).toBe("/iccids");
    const tooMany = (await failure(client().iccid.batch(Array.from({ length: 1001 }, (_, i) => iccidFor(i))))) as UnprocessableEntityError;
    expectProblem(tooMany, UnprocessableEntityError, 422, "invalid_input");
  });

  it("streams 25,000 ICCIDs through batchAll in order, malformed ones answered offline", { timeout: 120_000 }, async () => {
    const account = await real.server.createAccount();
    const c = client({ apiKey: account.apiKey });
    const total = 25_000;
    const itemAt = (i: number) => (i % 1000 === 7 ? "not an iccid" : iccidFor(i));
    let next = 0;
    let ok = 0;
    for await (const item of c.iccid.batchAll((function* () {
      for (let i = 0; i < total; i++) yield itemAt(i);
    })(), { concurrency: 4 })) {
      expect(item.index).toBe(next);
      if (item.ok) {
        expect(item.result.iccid).toBe(itemAt(next));
        ok++;
      } else {
        expect(item.input).toBe("not an iccid");
      }
      next++;
    }
    expect(next).toBe(total);
    expect(ok).toBe(total - 25);
    const usage = await c.usage.get();
    expect(usage.totals).toEqual({ requests: 25, lookups: total - 25 });
  });

  it("streams the same answers as CSV rows through batchAllCsv, in order, malformed ones encoded offline", { timeout: 120_000 }, async () => {
    const c = client();
    const inputs = Array.from({ length: 2_500 }, (_, i) => (i % 700 === 3 ? `=bad ${i}, "x"` : i % 500 === 1 ? iccidFor(i).slice(0, -1) + "0" : iccidFor(i)));
    const expected: string[] = [];
    const expectedOutcomes: string[] = [];
    let itemsProgress: BatchAllProgress | undefined;
    for await (const items of c.iccid.batchAllChunks([inputs], { onProgress: (p) => (itemsProgress = p) })) {
      for (const item of items) {
        expected.push(lookupRowCsv(item));
        expectedOutcomes.push(rowOutcome(item));
      }
    }
    const rows: string[] = [];
    const outcomes: string[] = [];
    const starts: number[] = [];
    let firstRowAt: number | undefined;
    let csvProgress: BatchAllProgress | undefined;
    const source = [inputs.slice(0, 1234), inputs.slice(1234)];
    for await (const chunk of c.iccid.batchAllCsv(source, { chunkSize: 600, onProgress: (p) => (csvProgress = p) })) {
      starts.push(chunk.start);
      firstRowAt ??= chunk.rowStart(0);
      for (let i = 0; i < chunk.length; i++) {
        rows.push(chunk.text(i));
        outcomes.push(chunk.outcome(i));
      }
    }
    expect(firstRowAt).toBe(csvLine(LOOKUP_ROW_COLUMNS).length); // the server's own CSV, after its header line
    expect(starts).toEqual([0, 600, 1200, 1800, 2400]);
    expect(rows).toEqual(expected);
    expect(outcomes).toEqual(expectedOutcomes);
    expect(new Set(outcomes)).toEqual(new Set(["valid", "invalid", "failed"]));
    expect({ ...csvProgress, requests: 0 }).toEqual({ ...itemsProgress, requests: 0 });
  });
});

describe("usage", () => {
  it("reports quota, rate limit and metered usage, grouped by key, without spending quota", async () => {
    const account = await real.server.createAccount();
    const c = client({ apiKey: account.apiKey });
    await c.iccid.lookup("89441000000000000018");
    await c.iccid.batch(["89441000000000000018", iccidFor(2), "bad"]); // iccidFor(1) is the same number
    const usage = await c.usage.get({ granularity: "day", group_by: "api_key" });
    expect(usage.subscription).toMatchObject({ status: "active", plan: "standard" });
    expect(usage.totals).toEqual({ requests: 2, lookups: 3 });
    expect(usage.quota).toMatchObject({ limit: 100_000, used: 3, remaining: 99_997 });
    expect(usage.rate_limit).toEqual({ limit: 600, window_seconds: 60 });
    expect(usage.by_key).toEqual([expect.objectContaining({ key_id: account.keyId, requests: 2, lookups: 3 })]);
    const again = await c.usage.get();
    expect(again.quota.used).toBe(3);
  });

  it("takes a date range (bounds on whole hours, as the server counts)", async () => {
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const usage = await client().usage.get({ from: new Date(hour - 86_400_000), to: new Date(hour + 86_400_000), granularity: "hour" });
    expect(usage.series.length).toBeGreaterThan(0);
  });

  it("maps a bad query to 422", async () => {
    const error = await failure(client().usage.get({ from: "yesterday" }));
    expectProblem(error, UnprocessableEntityError, 422, "invalid_input");
  });
});

describe("session and keys", () => {
  it("logs in, manages keys, and logs out", async () => {
    const account = await real.server.createAccount();
    const c = client({ apiKey: undefined });
    const session = await c.session.login(account.email, account.password);
    expect(session.account).toEqual({ id: account.id, email: account.email });
    expect(c.session.token).toMatch(/\S/);
    await expect(c.session.current()).resolves.toMatchObject({ account: { id: account.id } });

    const listed = await c.keys.list();
    expect(listed.data.map((k) => k.id)).toEqual([account.keyId]);

    const created = await c.keys.create({ name: "ci" });
    expect(created).toMatchObject({ name: "ci", revoked_at: null, last_used_at: null });
    expect(isWellFormedApiKey(created.key)).toBe(true);
    expect(created.key.endsWith(created.last4)).toBe(true);
    const withNewKey = client({ apiKey: created.key });
    await expect(withNewKey.iccid.lookup("89441000000000000018")).resolves.toMatchObject({ valid: true });
    expect((await c.keys.list()).data.find((k) => k.id === created.id)?.last_used_at).not.toBeNull();

    await c.keys.revoke(created.id);
    await c.keys.revoke(created.id); // again: still 204
    expect((await c.keys.list()).data.find((k) => k.id === created.id)?.revoked_at).not.toBeNull();
    const revoked = await failure(withNewKey.iccid.lookup("89441000000000000018"));
    expectProblem(revoked, AuthenticationError, 401, "revoked_api_key");

    const unnamed = await c.keys.create();
    expect(unnamed.name).toBeNull();

    // The signed-in account's usage, as the account page reads it: the lookup above is in it.
    const usage = await c.usage.forSession({ granularity: "day" });
    expect(usage.totals.lookups).toBeGreaterThanOrEqual(1);
    expect(usage.subscription.status).toBe("active");

    await c.session.logout();
    expect(c.session.token).toBeUndefined();
    expectProblem(await failure(c.session.current()), AuthenticationError, 401, "not_authenticated");
    expectProblem(await failure(c.usage.forSession()), AuthenticationError, 401, "not_authenticated");

    // Signed in twice (two processes), out everywhere from one: the other's session has ended too.
    const [first, second] = [client({ apiKey: undefined }), client({ apiKey: undefined })];
    for (const each of [first, second]) await each.session.login(account.email, account.password);
    await first.session.logoutEverywhere();
    expect(first.session.token).toBeUndefined();
    expectProblem(await failure(second.session.current()), AuthenticationError, 401, "not_authenticated");
  });

  it("creates a scoped key with an expiry, rolls it with a grace period, and reads the audit trail a page at a time", async () => {
    const account = await real.server.createAccount();
    const c = client({ apiKey: undefined });
    await c.session.login(account.email, account.password);
    const expiresAt = new Date(Date.now() + 90 * 86_400_000);
    const scoped = await c.keys.create({ name: "dashboard", scopes: ["usage:read"], expires_at: expiresAt });
    expect(scoped).toMatchObject({ name: "dashboard", scopes: ["usage:read"], expires_at: expiresAt.toISOString().replace(/\.\d{3}Z$/, "Z") });
    const dashboard = client({ apiKey: scoped.key });
    await expect(dashboard.usage.get()).resolves.toMatchObject({ totals: expect.any(Object) });
    const refused = await failure(dashboard.iccid.lookup("89441000000000000018"));
    expectProblem(refused, InsufficientScopeError, 403, "insufficient_scope");
    expect((refused as InsufficientScopeError).requiredScope).toBe("lookup");

    const rolled = await c.keys.roll(scoped.id, { grace_seconds: 3600 });
    expect(rolled).toMatchObject({ name: "dashboard", scopes: ["usage:read"], expires_at: scoped.expires_at });
    expect(rolled.key).not.toBe(scoped.key);
    await expect(dashboard.usage.get()).resolves.toBeDefined(); // within the grace period
    await expect(client({ apiKey: rolled.key }).usage.get()).resolves.toBeDefined();
    expectProblem(await failure(c.keys.roll(scoped.id)), ConflictError, 409, "key_not_rollable");
    expectProblem(await failure(c.keys.create({ expires_at: new Date(Date.now() - 1000) })), UnprocessableEntityError, 422, "invalid_input");

    const firstPage = await c.audit.list({ limit: 2 });
    expect(firstPage.events.map((e) => e.action)).toEqual(["key.rolled", "key.created"]);
    expect(firstPage.next_cursor).not.toBeNull();
    const all = [];
    for await (const event of c.audit.all({ limit: 2 })) all.push(event);
    expect(all.map((e) => e.action)).toEqual(["key.rolled", "key.created", "session.created", "key.created", "account.created"]);
    expect(all[0]).toMatchObject({ actor: { type: "session" }, ip: "127.0.0.1", target: scoped.id });
  });

  it("resumes a session in a new client from the saved token", async () => {
    const account = await real.server.createAccount();
    const first = client({ apiKey: undefined });
    await first.session.login(account.email, account.password);
    const second = client({ apiKey: undefined, sessionToken: first.session.token });
    await expect(second.keys.list()).resolves.toMatchObject({ data: [expect.objectContaining({ id: account.keyId })] });
  });

  it("maps a failed login to AuthenticationError invalid_credentials", async () => {
    const error = await failure(client().session.login(real.server.owner.email, "wrong password"));
    expectProblem(error, AuthenticationError, 401, "invalid_credentials");
  });

  it("maps an unknown key id, another account's key, and a path-like id to NotFoundError", async () => {
    const other = await real.server.createAccount();
    const c = client();
    await c.session.login(real.server.owner.email, real.server.owner.password);
    expectProblem(await failure(c.keys.revoke("key_doesnotexist")), NotFoundError, 404, "not_found");
    expectProblem(await failure(c.keys.revoke(other.keyId)), NotFoundError, 404, "not_found");
    expectProblem(await failure(c.keys.revoke("../session")), NotFoundError, 404, "not_found");
    await expect(c.session.current()).resolves.toBeDefined(); // the encoded id did not reach DELETE /session
  });

  it("maps a key call without a session to AuthenticationError not_authenticated", async () => {
    expectProblem(await failure(client().keys.list()), AuthenticationError, 401, "not_authenticated");
  });

  it("maps a cross-site session request to PermissionDeniedError csrf_rejected", async () => {
    const c = real.rewritingClient(real.server.owner, (opts) => ({
      ...opts,
      headers: { ...(opts.headers as Record<string, string>), origin: "https://evil.example" },
    }));
    const error = await failure(c.session.login(real.server.owner.email, real.server.owner.password));
    expectProblem(error, PermissionDeniedError, 403, "csrf_rejected");
  });
});
