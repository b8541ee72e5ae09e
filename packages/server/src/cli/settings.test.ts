import { describe, expect, it } from "vitest";
import { resolveSettings, SettingsError } from "./settings.js";

const PG = "postgres://iccid@pooler.internal:6432/iccid";
const DIRECT = "postgres://iccid@db.internal:5432/iccid";

describe("the PostgreSQL pooler settings", () => {
  it("default to no pooler and no direct URL; take the flag over the variable", () => {
    expect(resolveSettings({ db: PG }, {})).toMatchObject({ pgPooler: "none", pgDirectUrl: undefined });
    const env = { ICCID_PG_POOLER: "none", ICCID_PG_DIRECT_URL: DIRECT };
    expect(resolveSettings({ db: PG, pgPooler: "transaction" }, env)).toMatchObject({ pgPooler: "transaction", pgDirectUrl: DIRECT });
  });

  it("refuse, naming where the value came from: an unknown mode, a direct URL that is not PostgreSQL's", () => {
    expect(() => resolveSettings({ db: PG }, { ICCID_PG_POOLER: "statement" })).toThrow(new SettingsError('ICCID_PG_POOLER: must be "none" or "transaction" (got "statement")'));
    expect(() => resolveSettings({ db: PG, pgPooler: "transaction", pgDirectUrl: "db.internal:5432" }, {})).toThrow(/^--pg-direct-url: must be a postgres:\/\/ or postgresql:\/\/ URL/);
  });

  it("refuse a pooler for a SQLite file, and a direct URL without a transaction pooler to go around", () => {
    expect(() => resolveSettings({ db: "./data/iccid.db" }, { ICCID_PG_POOLER: "transaction" })).toThrow(/^ICCID_PG_POOLER: only with a postgres:\/\/ --db/);
    expect(() => resolveSettings({ db: PG, pgDirectUrl: DIRECT }, {})).toThrow(/^--pg-direct-url: only with --pg-pooler transaction/);
    expect(() => resolveSettings({ db: PG, pgPooler: "none" }, { ICCID_PG_DIRECT_URL: DIRECT })).toThrow(/^ICCID_PG_DIRECT_URL: only with --pg-pooler transaction/);
  });
});
