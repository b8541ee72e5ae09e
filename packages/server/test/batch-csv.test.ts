import { csvLine, LOOKUP_ROW_COLUMNS, lookupRowCsv, luhnCheckDigit, type BatchItem } from "@iccid/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/index.js";
import { eventually } from "./eventually.js";
import { call } from "./http.js";

// The batch answer as CSV (docs/api.md, "The batch as CSV"): the same answer as the JSON one, row for row.

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 10_000 }, recheckMs: 50 });
  key = server.owner.apiKey;
});
afterAll(async () => server?.close());

const withCheck = (body: string) => body + luhnCheckDigit(body);
const batch = (iccids: string[], accept?: string) =>
  call(server.url, "POST", "/api/v1/iccid/batch", { key, body: { iccids }, ...(accept !== undefined && { headers: { accept } }) });

describe("POST /api/v1/iccid/batch with Accept: text/csv", () => {
  it("answers a header line and each item's lookup row, in input order, as the JSON answer's items encode", async () => {
    // A custom issuer whose name needs quoting and would run as a spreadsheet formula.
    await server.store.replaceCustomPrefixes([{ prefix: "898829912", name: '=Evil, "Quoted"\nCo', country_iso2: null }]);
    const custom = withCheck("898829912000000000");
    await eventually(async () => expect((await batch([custom])).body.results[0].result.issuer.source).toBe("custom"));
    const inputs = ["8944 1000 0000 0000 0018", "12AB", "89441000000000000019", custom, "89014103211118510720", "12AB"];

    const json = await batch(inputs);
    const csv = await batch(inputs, "text/csv");
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8; header=present");
    expect(csv.headers.vary).toMatch(/Accept/);
    const rows = (json.body.results as BatchItem[]).map((item) => lookupRowCsv(item) + "\n");
    expect(csv.text).toBe(csvLine(LOOKUP_ROW_COLUMNS) + rows.join(""));
    expect(csv.text).toContain(`,"'=Evil, ""Quoted""\nCo",`);
    expect(csv.text.split("\n")[2]).toMatch(/^,,,,,,,,,,,,invalid_mii,/); // a failed item: the error columns only
  });

  it("charges a CSV batch exactly as a JSON one: one lookup per distinct number", async () => {
    const account = await server.createAccount();
    const used = async () =>
      (await call(server.url, "GET", "/api/v1/usage", { key: account.apiKey })).body.quota.used as number;
    const before = await used();
    const r = await call(server.url, "POST", "/api/v1/iccid/batch", {
      key: account.apiKey,
      headers: { accept: "text/csv" },
      body: { iccids: ["89441000000000000018", "89441000000000000018", "89450400000000000015", "12AB"] },
    });
    expect(r.status).toBe(200);
    expect(r.text.trimEnd().split("\n")).toHaveLength(5);
    expect((await used()) - before).toBe(2);
  });

  it("answers JSON unless Accept prefers text/csv", async () => {
    for (const accept of [undefined, "*/*", "application/json", "text/html", "text/csv;q=0.5, application/json", "application/*"]) {
      const r = await batch(["89441000000000000018"], accept);
      expect(r.headers["content-type"], String(accept)).toBe("application/json; charset=utf-8");
      expect(r.body.summary.total).toBe(1);
    }
    for (const accept of ["text/csv", "text/*", "application/json;q=0.9, text/csv"]) {
      expect((await batch(["89441000000000000018"], accept)).headers["content-type"], accept).toMatch(/^text\/csv/);
    }
  });

  it("answers problems as problem+json whatever the Accept", async () => {
    const r = await call(server.url, "POST", "/api/v1/iccid/batch", { key, headers: { accept: "text/csv" }, body: { iccids: [] } });
    expect(r.status).toBe(422);
    expect(r.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(r.body.errors[0].pointer).toBe("/iccids");
  });

  it("is described in the OpenAPI document beside the JSON answer", async () => {
    const doc = await call(server.url, "GET", "/api/v1/openapi.json");
    const content = doc.body.paths["/api/v1/iccid/batch"].post.responses["200"].content;
    expect(Object.keys(content)).toEqual(["application/json", "text/csv"]);
    expect(content["text/csv"].example).toBe(csvLine(LOOKUP_ROW_COLUMNS));
  });
});
