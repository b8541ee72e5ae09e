import { describe, expect, it } from "vitest";
import { newRequestId } from "./request-id.js";

describe("newRequestId", () => {
  it("makes req_ and 32 hex digits, never the same twice, across refills of its random bytes", () => {
    const ids = Array.from({ length: 1000 }, newRequestId); // 256 ids to a refill
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
