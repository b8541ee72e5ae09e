// The server as a library, for hosting it in-process (tests, benchmarks, custom entry points).
export { createApp, SERVER_VERSION, type AppDeps, type IccidApp } from "./app.js";
export { IccidDecoder, type DecodeOutcome } from "./decode/decoder.js";
export { loadDecoder } from "./decode/load.js";
export { listen, type ListenOptions, type RunningServer } from "./http-server.js";
export { redisLimiters } from "./limits/redis-limiters.js";
export { connectRedis, redisReady } from "./redis.js";
export { memoryLimiters, type LimiterFactory } from "./limits/rate-limit.js";
export { Accounts } from "./services/accounts.js";
export { ApiKeys } from "./services/api-keys.js";
export { DEFAULT_PLAN, DEFAULT_SETTINGS, type ServerSettings } from "./settings.js";
export { openStore } from "./store/open.js";
export { PgStore } from "./store/postgres/pg-store.js";
export { SqliteStore } from "./store/sqlite/sqlite-store.js";
export type { CustomPrefix, Plan, Store } from "./store/store.js";
export { systemClock, type Clock } from "./time.js";
