import { describe, expect, it } from "vitest";
import { resolveSettings, SettingsError } from "../cli/settings.js";
import { redactUrls } from "./redacted-url.js";

describe("redactUrls", () => {
  it("replaces the password of every URL in a text, keeping the rest", () => {
    expect(redactUrls("postgres://postgres:S3cretPw@127.0.0.1:5432/iccid")).toBe("postgres://postgres:***@127.0.0.1:5432/iccid");
    expect(redactUrls("redis://:pw@cache:6379/0 and rediss://default:pw2@cache")).toBe("redis://:***@cache:6379/0 and rediss://default:***@cache");
    expect(redactUrls('{"db":"postgresql://u:p@ss:w@db.internal/x?sslmode=require"}')).toBe('{"db":"postgresql://u:***@db.internal/x?sslmode=require"}');
    expect(redactUrls("postgres://u@h/db?password=hunter2&sslmode=require")).toBe("postgres://u@h/db?password=***&sslmode=require");
  });

  it("leaves text without a password as it is", () => {
    for (const text of ["./data/iccid.db", "postgres://u@h/db", "redis://127.0.0.1:6379", "GET /api/v1/usage 200", "mailto:a@b.c"]) {
      expect(redactUrls(text)).toBe(text);
    }
  });

  it("keeps a password out of a settings error that echoes the value", () => {
    let error: unknown;
    try {
      resolveSettings({ redis: "http://:T0pSecret@cache:6379" }, {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).toContain("http://:***@cache:6379");
    expect((error as Error).message).not.toContain("T0pSecret");
  });
});
