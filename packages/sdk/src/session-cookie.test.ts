import { describe, expect, it } from "vitest";
import { SessionCookie, sessionFromSetCookie } from "./session-cookie.js";

describe("session cookie", () => {
  it("reads the session value and ignores other cookies", () => {
    expect(sessionFromSetCookie("iccid_session=abc.def; Path=/; HttpOnly; SameSite=Lax")).toBe("abc.def");
    expect(sessionFromSetCookie("other=1; Path=/")).toBeUndefined();
  });

  it("sees a cleared cookie in an empty value, Max-Age=0 or a past Expires", () => {
    expect(sessionFromSetCookie("iccid_session=; Path=/")).toBeNull();
    expect(sessionFromSetCookie("iccid_session=x; Max-Age=0")).toBeNull();
    expect(sessionFromSetCookie("iccid_session=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT")).toBeNull();
  });

  it("updates from a list of Set-Cookie fields", () => {
    const cookie = new SessionCookie(undefined);
    cookie.update(["a=1", "iccid_session=v1; Path=/"]);
    expect(cookie.header()).toBe("iccid_session=v1");
    cookie.update(["iccid_session=; Max-Age=0"]);
    expect(cookie.header()).toBeUndefined();
  });
});
