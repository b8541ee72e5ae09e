// A bench child: a server in its own process, so the load generator in the parent does not share its
// process and its CPU time can be counted apart. argv[2]:
// - "iccid": the full server on a temp SQLite file;
// - "iccid-pg": the full server on the PostgreSQL database at BENCH_PG_URL, rate limits in the Redis at
//   ICCID_TEST_REDIS_URL;
// - "echo": a bare Koa + @koa/router endpoint that reads the JSON body and writes it back;
// - "bare-batch": a bare Koa + @koa/router batch endpoint that reads the JSON body and answers the
//   in-process work below (decode each ICCID, JSON.stringify the answer), nothing else;
// - "decode": no server; on the IPC message {batches: n} it does n times the plain in-process work of a
//   batch of the 1000 bench ICCIDs: decode each, JSON.stringify the answer; and answers {done: n}.
// Prints one JSON line {url, key} when ready; stops on SIGTERM.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Router } from "@koa/router";
import Koa from "koa";
import { thousandIccids } from "./iccids.mjs";

const kind = process.argv[2];
const LIMITS = { rate_limit: 1_000_000_000, window_seconds: 60, monthly_lookups: 1_000_000_000 };
let stop;

/** The in-process work of a batch: decode each ICCID, JSON.stringify the answer's results. */
function decodeAndStringify(decoder, iccids) {
  const results = iccids.map((iccid, index) => {
    const out = decoder.decode(iccid);
    return out.ok ? { index, ok: true, result: out.result } : { index, ok: false, input: iccid, error: out.error };
  });
  return JSON.stringify({ results });
}

/** A bare Koa + @koa/router server with one POST route, where `answer(ctx, body)` answers the JSON body read whole. */
async function bareKoa(path, answer) {
  const app = new Koa();
  const router = new Router();
  router.post(path, async (ctx) => {
    const chunks = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    answer(ctx, JSON.parse(Buffer.concat(chunks).toString("utf8")));
  });
  app.use(router.routes());
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}`, key: "" }));
  stop = () => server.close();
}

if (kind === "echo") {
  // The baseline: the same HTTP server and framework, a JSON body read and written back, nothing else.
  await bareKoa("/api/v1/iccid/lookup", (ctx, body) => {
    ctx.body = body;
  });
} else if (kind === "bare-batch") {
  const { IccidDecoder } = await import("../../packages/server/dist/index.js");
  const decoder = new IccidDecoder();
  await bareKoa("/api/v1/iccid/batch", (ctx, body) => {
    ctx.body = decodeAndStringify(decoder, body.iccids);
    ctx.type = "application/json";
  });
} else if (kind === "iccid" || kind === "iccid-pg") {
  const s = await import("../../packages/server/dist/index.js");
  let store;
  let limiterFactory;
  let dispose = async () => {};
  if (kind === "iccid") {
    const dir = mkdtempSync(join(tmpdir(), "iccid-bench-"));
    store = new s.SqliteStore(join(dir, "iccid.db"));
    dispose = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    store = new s.PgStore(process.env.BENCH_PG_URL);
    const redis = s.connectRedis(process.env.ICCID_TEST_REDIS_URL);
    await s.redisReady(redis);
    limiterFactory = s.redisLimiters(redis, `bench:${process.pid}`);
    dispose = async () => void (await redis.quit());
  }
  // What `iccid-server start` wires, with the bench's plan and one account with one key.
  await store.migrate();
  await store.upsertPlan({ name: "standard", ...LIMITS });
  const decoder = await s.loadDecoder(store);
  const app = s.createApp({ store, decoder, ...(limiterFactory ? { limiterFactory } : {}) });
  const running = await s.listen(app, { host: "127.0.0.1", port: 0, store });
  const account = await new s.Accounts(store, s.systemClock).create({ email: "bench@example.test", password: "bench-password", plan: "standard" });
  const { key } = await new s.ApiKeys(store, s.systemClock).create(account.id, "bench");
  console.log(JSON.stringify({ url: running.url, key }));
  stop = async () => {
    decoder.close();
    await running.close();
    await dispose();
  };
} else if (kind === "decode") {
  const { IccidDecoder } = await import("../../packages/server/dist/index.js");
  const decoder = new IccidDecoder();
  const iccids = thousandIccids();
  process.on("message", ({ batches }) => {
    for (let n = 0; n < batches; n++) decodeAndStringify(decoder, iccids);
    process.send({ done: batches });
  });
  console.log(JSON.stringify({ url: "", key: "" }));
  stop = () => process.disconnect();
} else {
  throw new Error(`unknown server kind ${kind}`);
}

process.once("SIGTERM", async () => {
  await stop();
  process.exit(0);
});
