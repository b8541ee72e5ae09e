import { describe, expect, it } from "vitest";
import { RateLimited } from "../domain/refusals.js";
import { AccountRateLimiter } from "./rate-limit.js";

const plan = (rate_limit: number) => ({ name: "standard", rate_limit, window_seconds: 60, monthly_lookups: 1000 });

describe("AccountRateLimiter", () => {
  it("counts an account's requests against its plan's rate and refuses past it", async () => {
    const limiter = new AccountRateLimiter();
    const two = plan(2);
    expect((await limiter.consume("acc_1", two)).remaining).toBe(1);
    expect((await limiter.consume("acc_1", two)).remaining).toBe(0);
    await expect(limiter.consume("acc_1", two)).rejects.toBeInstanceOf(RateLimited);
    expect((await limiter.consume("acc_2", two)).remaining).toBe(1);
  });

  it("follows a plan changed while running: the changed row counts against its new rate", async () => {
    const limiter = new AccountRateLimiter();
    await limiter.consume("acc_1", plan(1));
    await expect(limiter.consume("acc_1", plan(1))).rejects.toBeInstanceOf(RateLimited); // another row, same rate
    const raised = plan(3);
    expect((await limiter.consume("acc_1", raised)).remaining).toBe(2);
    expect(await limiter.peek("acc_1", raised)).toMatchObject({ limit: 3, remaining: 2 });
  });
});
