import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/index.js";
import { call } from "../http.js";
import { launchChromium, openPage, screenshot } from "./browser.js";

// The account page's key scopes, expiry, rolling and Activity list in a real browser, at desk and phone
// width: create a usage-only key expiring in 90 days, roll it keeping the old one for 24 hours, and read
// the Activity list. Screenshots go to test/e2e/screenshots/.

const GOOD = "89441000000000000018";
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each([
  { width: 1280, height: 1000, tag: "desk" },
  { width: 375, height: 800, tag: "phone" },
])("keys and activity at $width px", ({ width, height, tag }) => {
  it("creates a scoped key with an expiry, rolls it with a grace period, and lists the activity", async () => {
    const account = await server.createAccount();
    const { page, problems, close } = await openPage(browser, server.url, { viewport: { width, height }, signInAs: account });
    await page.getByRole("heading", { name: "Your account" }).waitFor();

    // A key for a dashboard: reading usage only, expiring in 90 days.
    await page.getByLabel(/Name of the new key/).fill(`dashboard ${tag}`);
    await page.getByRole("checkbox", { name: "Lookups", exact: true }).uncheck();
    await page.getByRole("combobox", { name: "Expires" }).selectOption("90");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.getByLabel("The new API key");
    await secret.waitFor();
    const key = await secret.inputValue();
    const row = page.locator("tr", { hasText: `dashboard ${tag}` }).first();
    await expect.poll(() => row.locator('td[data-label="Scopes"]').textContent()).toBe("usage");
    const expires = await row.locator('td[data-label="Expires"] time').getAttribute("datetime");
    expect(Date.parse(expires!) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    await screenshot(page, `11-${tag}-scoped-key-created`);

    // The key does what its scope says, and nothing else.
    expect((await call(server.url, "GET", "/api/v1/usage", { key })).status).toBe(200);
    expect((await call(server.url, "POST", "/api/v1/iccid/lookup", { key, body: { iccid: GOOD } })).body.code).toBe("insufficient_scope");
    await page.getByRole("button", { name: "I have saved it" }).click();

    // Roll it, keeping the old key for 24 hours.
    await row.getByRole("button", { name: /Roll key/ }).click();
    await page.getByLabel("The old key keeps working").selectOption("86400");
    await screenshot(page, `12-${tag}-roll-confirm`, { viewport: true });
    await page.locator("#roll-confirm").click();
    await expect.poll(() => page.getByLabel("The new API key").inputValue()).toMatch(/^iccid_/);
    const rolledKey = await page.getByLabel("The new API key").inputValue();
    expect(rolledKey).not.toBe(key);
    const rows = page.locator("tr", { hasText: `dashboard ${tag}` });
    await expect.poll(() => rows.count()).toBe(2);
    // The old key's row now expires in 24 hours; both work until then.
    const oldRow = page.locator(`tr:has(code:text("${key.slice(0, 10)}…${key.slice(-4)}"))`);
    const oldExpires = await oldRow.locator('td[data-label="Expires"] time').getAttribute("datetime");
    expect(Math.abs(Date.parse(oldExpires!) - (Date.now() + 86_400_000))).toBeLessThan(120_000);
    for (const k of [key, rolledKey]) expect((await call(server.url, "GET", "/api/v1/usage", { key: k })).status).toBe(200);
    await screenshot(page, `13-${tag}-key-rolled`);
    await page.getByRole("button", { name: "I have saved it" }).click();

    // The Activity list, newest first.
    const items = page.locator("#activity-list li");
    await expect.poll(() => items.evaluateAll((lis) => lis.map((li) => li.getAttribute("data-action")))).toEqual([
      "key.rolled",
      "key.created",
      "session.created",
      "key.created",
      "account.created",
    ]);
    await expect.poll(() => items.first().textContent()).toContain("Key rolled");
    expect(await items.nth(2).textContent()).toContain("from 127.0.0.1");
    expect(await page.locator("#activity").textContent()).not.toContain(rolledKey);
    await page.locator("#activity").scrollIntoViewIfNeeded();
    await screenshot(page, `14-${tag}-activity`);

    // Nothing sideways at any width.
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
    expect(problems).toEqual([]);
    await close();
  });
});
