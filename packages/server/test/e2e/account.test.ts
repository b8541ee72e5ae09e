import { AuthenticationError, IccidClient, luhnCheckDigit } from "@iccid/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/index.js";
import { expectPasswordToRetype, launchChromium, newContext, screenshot, signIn, watchPage } from "./browser.js";

// The account page in a real browser, end to end: sign in, create a key, use it through the SDK, watch the
// usage move, revoke it, see the SDK refused, sign out. Each state is saved as a screenshot in
// test/e2e/screenshots/ (git-ignored) for people to look at.

const iccid = (body: string) => body + luhnCheckDigit(body);
const ICCIDS = [iccid("8944100000000000001"), iccid("8944100000000000002"), iccid("8944100000000000003")];

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Signs in with the keyboard only: the email field has focus on arrival, Tab to the password, Enter. */
async function signInByKeyboard(page: Page, email: string, password: string): Promise<void> {
  await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("sign-in-email");
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
}

describe("account page", () => {
  it("signs in, creates a key, shows usage, revokes the key and signs out", async () => {
    const context = await newContext(browser, { width: 1100, height: 900 });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const page = await context.newPage();
    const watch = watchPage(page, server.url);

    // / redirects to /account, which carries the strict CSP.
    const response = await page.goto(`${server.url}/`);
    expect(page.url()).toBe(`${server.url}/account`);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await screenshot(page, "01-sign-in");

    // A wrong password: an alert, and the user stays on the form with the email kept, to retype the password.
    await signInByKeyboard(page, server.owner.email, "not-the-password");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("email or password is wrong");
    await expectPasswordToRetype(page, server.owner.email);
    await screenshot(page, "02-sign-in-error");

    await signIn(page, server.owner.email, server.owner.password);
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    await expect.poll(() => page.locator("#who-email").textContent()).toBe(server.owner.email);
    const usedNow = () => page.locator("#quota-used").textContent();
    await expect.poll(usedNow).toBe("0");
    await page.locator(`tr[data-key-id="${server.owner.keyId}"]`).waitFor();
    await screenshot(page, "03-signed-in");

    // Create a key: the secret is shown once, with a copy button and the warning.
    await page.getByLabel(/Name of the new key/).fill("e2e browser key");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.getByLabel("The new API key");
    await secret.waitFor();
    const key = await secret.inputValue();
    expect(key).toMatch(/^iccid_[0-9A-Za-z]+$/);
    await expect.poll(() => page.locator("#new-key").textContent()).toContain("you will not see this again");
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("new-key-title");
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe(key);
    const row = page.locator("tr", { hasText: "e2e browser key" });
    await expect.poll(() => row.textContent()).toContain("Active");
    await screenshot(page, "04-key-created");

    // Dismissed, the secret leaves the page.
    await page.getByRole("button", { name: "I have saved it" }).click();
    await expect.poll(() => page.locator("#new-key").isHidden()).toBe(true);
    expect(await page.content()).not.toContain(key);

    // Use it through the SDK: one lookup and a batch of two distinct ICCIDs = 2 requests, 3 lookups.
    const client = new IccidClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    expect((await client.iccid.lookup(ICCIDS[0]!)).valid).toBe(true);
    expect((await client.iccid.batch(ICCIDS.slice(1))).summary.ok).toBe(2);

    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(usedNow).toBe("3");
    await expect.poll(() => page.locator("#total-requests").textContent()).toBe("2");
    expect(await page.locator("svg.chart rect.bar").count()).toBe(1);
    // Whole-number gridlines up to the highest day (3 lookups), not 2.5 rounded to "3".
    expect(await page.locator("svg.chart text.y-tick").allTextContents()).toEqual(["0", "1", "2", "3"]);
    expect(await page.getByRole("meter").getAttribute("aria-valuenow")).toBe("3");
    // A reload keeps the session (HttpOnly cookie) and shows when the key was last used.
    await page.reload();
    await expect.poll(() => row.locator('td[data-label="Last used"]').textContent()).not.toBe("Never");
    await expect.poll(usedNow).toBe("3");
    await screenshot(page, "05-usage-moved");

    // Revoke asks first: Escape cancels and the key stays active.
    await row.getByRole("button", { name: /Revoke key e2e browser key/ }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this key?" });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate("document.activeElement?.textContent")).toBe("Cancel");
    await screenshot(page, "06-revoke-confirm", { viewport: true });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await row.textContent()).toContain("Active");

    await row.getByRole("button", { name: /Revoke key e2e browser key/ }).click();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(() => row.locator('td[data-label="Status"]').textContent()).toMatch(/^Revoked on /);
    expect(await row.getByRole("button").count()).toBe(0);
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("keys-title");
    await screenshot(page, "07-key-revoked");

    // The next call with the revoked key fails.
    const refused = await client.iccid.lookup(ICCIDS[0]!).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).code).toBe("revoked_api_key");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("You have signed out.");
    expect(await page.locator("#account-view").isHidden()).toBe(true);
    await screenshot(page, "08-signed-out");
    // The cookie is gone for real: a reload lands on the sign-in form again.
    await page.reload();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.locator("#account-view").isHidden()).toBe(true);

    expect(watch.problems).toEqual([]);
    await context.close();
  });

  it("reads at phone width (375 px) without sideways scrolling", async () => {
    const context = await newContext(browser, { width: 375, height: 740 });
    const page = await context.newPage();
    const watch = watchPage(page, server.url);
    await page.goto(`${server.url}/account`);
    await signInByKeyboard(page, server.owner.email, server.owner.password);
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    await page.locator("svg.chart").waitFor();
    await page.locator(`tr[data-key-id="${server.owner.keyId}"]`).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
    await screenshot(page, "09-phone-account");

    await page.locator(`tr[data-key-id="${server.owner.keyId}"]`).getByRole("button", { name: /Revoke/ }).click();
    await page.getByRole("dialog").waitFor();
    await screenshot(page, "10-phone-revoke-confirm", { viewport: true });
    await page.getByRole("button", { name: "Cancel" }).click();

    expect(watch.problems).toEqual([]);
    await context.close();
  });
});
