import { describe, expect, it } from "vitest";
import { checkedBody, type ResponseSchema } from "./response-body.js";
import { ResponseValidationError } from "./errors.js";

const hasName: ResponseSchema<{ name: string }> = {
  safeParse: (data) =>
    typeof (data as { name?: unknown }).name === "string"
      ? { success: true, data: data as { name: string } }
      : { success: false, error: { issues: [{ path: ["items", 0, "name"], message: "Required" }] } },
};
const CALL = { method: "POST", path: "/iccid/batch" };
const headers = { "content-type": "application/json", "x-request-id": "req_1" };

describe("checkedBody", () => {
  it("decodes a body given as text or as the undecoded bytes of callBytes alike", () => {
    const body = '{"name":"Ümlaut"}';
    expect(checkedBody(CALL, hasName, { status: 200, headers, body })).toEqual({ name: "Ümlaut" });
    expect(checkedBody(CALL, hasName, { status: 200, headers, body: Buffer.from(body) })).toEqual({ name: "Ümlaut" });
  });

  it("names the call, status, request id and issue paths when the answer breaks the contract", () => {
    const error = (() => {
      try {
        return checkedBody(CALL, hasName, { status: 200, headers, body: Buffer.from("{}") });
      } catch (thrown) {
        return thrown;
      }
    })() as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe("the answer to POST /api/v1/iccid/batch did not match the API contract: items[0].name: Required");
    expect([error.status, error.requestId]).toEqual([200, "req_1"]);
  });

  it("says when the body is not JSON at all", () => {
    expect(() => checkedBody(CALL, hasName, { status: 200, headers: { "content-type": "text/html" }, body: Buffer.from("<html>") })).toThrow(
      "the body is not JSON (content-type text/html)",
    );
  });
});
