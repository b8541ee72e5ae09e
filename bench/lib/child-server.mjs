// A server in its own process, so the load generator in the parent does not share its CPU time.
// argv[2]: "iccid" (the full server on a temp SQLite file), "iccid-pg" (on PostgreSQL + Redis; several
// children given the same BENCH_SCHEMA share one database), or "echo" (bare Koa + @koa/router JSON echo).
// Prints one JSON line {url, key} when ready; stops on SIGTERM.
import { createServer } from "node:http";
import { Router } from "@koa/router";
import Koa from "koa";

const kind = process.argv[2];
const LIMITS = { rate_limit: 1_000_000_000, window_seconds: 60, monthly_lookups: 1_000_000_000 };
let stop;

if (kind === "echo") {
  // The baseline: the same HTTP server and framework, a JSON body read and written back, nothing else.
  const app = new Koa();
  const router = new Router();
  router.post("/api/v1/iccid/lookup", async (ctx) => {
    const chunks = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    ctx.body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  });
  app.use(router.routes());
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}`, key: "" }));
  stop = () => server.close();
} else if (kind === "iccid") {
  const { startTestServer } = await import("../../packages/server/dist/testing.js");
  const server = await startTestServer({ plan: LIMITS });
  console.log(JSON.stringify({ url: server.url, key: server.owner.apiKey }));
  stop = () => server.close();
} else if (kind === "iccid-pg") {
  const s = await import("../../packages/server/dist/index.js");
  const store = new s.PgStore(process.env.ICCID_TEST_POSTGRES_URL, { schema: process.env.BENCH_SCHEMA });
  await store.migrate();
  await store.upsertPlan({ name: "standard", ...LIMITS });
  const redis = s.connectRedis(process.env.ICCID_TEST_REDIS_URL);
  await s.redisReady(redis);
  const app = s.createApp({ store, decoder: new s.IccidDecoder(), limiterFactory: s.redisLimiters(redis, `bench:${process.env.BENCH_SCHEMA}`) });
  const running = await s.listen(app, { host: "127.0.0.1", port: 0, store });
  let key = process.env.BENCH_KEY;
  if (!key) {
    const account = await new s.Accounts(store, s.systemClock).create({ email: "bench@example.test", password: "bench-password", plan: "standard" });
    key = (await new s.ApiKeys(store, s.systemClock).create(account.id, "bench")).key;
  }
  console.log(JSON.stringify({ url: running.url, key }));
  stop = async () => {
    await running.close();
    await redis.quit();
  };
} else {
  throw new Error(`unknown server kind ${kind}`);
}

process.once("SIGTERM", async () => {
  await stop();
  process.exit(0);
});
