import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestAccount, type TestServer } from "../../test-support/index.js";
import { call } from "../http.js";
import { expectPasswordToRetype, launchChromium, openPage, screenshot, signIn, type OpenPage } from "./browser.js";
import { iccidOf } from "./sims-csv.js";

// The states a user meets besides the happy path: locked out of sign-in (the page says until when), a
// session that ended under the page, found by a call or by a file's upload (the form keeps the email), a
// period without lookups (no made-up axis), and the /docs/errors page every problem points to (styled, at
// phone width too). Screenshots in test/e2e/screenshots/.

const WIDTHS = [1280, 375] as const;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ settings: { loginAttemptsPerEmail: 2 } }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The page at `path` (the account page unless told), `width` wide and 800 high. */
function open(width: number, path = "/account"): Promise<OpenPage> {
  return openPage(browser, server.url, { viewport: { width, height: 800 }, path });
}

/** Signs in, waits for the account, then ends the session elsewhere (expired, or signed out in another tab). */
async function signInThenEndSession(page: Page): Promise<TestAccount> {
  const account = await server.createAccount();
  await signIn(page, account.email, account.password);
  await page.getByRole("heading", { name: "Your account" }).waitFor();
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "iccid_session")!;
  expect((await call(server.url, "DELETE", "/api/v1/session", { cookie: `iccid_session=${session.value}` })).status).toBe(204);
  return account;
}

/** The sign-in form back, saying why, with the email kept and the password to type. */
async function expectSessionEnded(page: Page, email: string): Promise<void> {
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await expect.poll(() => page.getByRole("alert").textContent()).toBe("Your session has ended. Sign in again.");
  await expectPasswordToRetype(page, email);
}

describe("account page states", () => {
  it("says when sign-in can be tried again after too many attempts", async () => {
    const account = await server.createAccount();
    const { page, problems, close } = await open(1280);
    for (let i = 0; i < 2; i++) {
      await signIn(page, account.email, "a-wrong-guess");
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("email or password is wrong");
      await page.locator("#sign-in-error").evaluate((node) => (node.textContent = ""));
    }
    await signIn(page, account.email, account.password);
    // 15 minutes from the server's Retry-After, and the clock time (the context's zone is UTC).
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/^Too many sign-in attempts\. Try again in 15 minutes \(at \d{1,2}:\d{2}\s?[AP]M\)\.$/);
    expect(await page.getByRole("alert").textContent()).not.toMatch(/later/);
    await screenshot(page, "states-locked-out-1280");
    // Chromium logs the 429 as a failed resource load; nothing else may go wrong.
    expect(problems.filter((p) => !/status of 429/.test(p))).toEqual([]);
    await close();
  });

  it("signs out everywhere: this page says so, and a page signed in elsewhere finds its session ended", async () => {
    const account = await server.createAccount();
    const [here, there] = [await open(1280), await open(1280)];
    for (const { page } of [here, there]) {
      await signIn(page, account.email, account.password);
      await page.getByRole("heading", { name: "Your account" }).waitFor();
    }
    await here.page.getByRole("button", { name: "Sign out everywhere" }).click();
    await here.page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expect.poll(() => here.page.getByRole("alert").textContent()).toBe("You have signed out everywhere: every session of this account has ended.");
    await screenshot(here.page, "states-signed-out-everywhere-1280");
    await there.page.getByRole("button", { name: "Refresh" }).click();
    await expectSessionEnded(there.page, account.email);
    expect([...here.problems, ...there.problems]).toEqual([]);
    await Promise.all([here.close(), there.close()]);
  });

  it("keeps the email on the sign-in form when the session ends under the page", async () => {
    const { page, problems, close } = await open(1280);
    // The next call finds the session gone.
    const account = await signInThenEndSession(page);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expectSessionEnded(page, account.email);
    await screenshot(page, "states-session-ended-1280");
    // Only the password to type again.
    await page.locator("#sign-in-password").fill(account.password);
    await page.locator("#sign-in-password").press("Enter");
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    expect(problems).toEqual([]);
    await close();
  });

  it("keeps the email on the sign-in form when the session ends before a file is looked up", async () => {
    const { page, problems, close } = await open(1280);
    const account = await signInThenEndSession(page);
    // Choosing the file asks the server nothing; the upload's first batch finds the session gone.
    const csv = `customer,ICCID\nAcme,${iccidOf(950, 1)}\nGlobex,${iccidOf(950, 2)}\n`;
    await page.getByLabel("CSV file").setInputFiles({ name: "sims.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Look up file" }).click();
    await expectSessionEnded(page, account.email);
    expect(await page.locator("#lookup-results").count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });

  for (const width of WIDTHS) {
    it(`draws a period without lookups without a y axis, saying so (${width} px)`, async () => {
      const account = await server.createAccount();
      const { page, problems, close } = await open(width);
      await signIn(page, account.email, account.password);
      const chart = page.locator("#usage-chart svg.chart");
      await chart.waitFor();
      expect(await chart.locator("text.y-tick").count()).toBe(0);
      expect(await chart.locator("line.grid").count()).toBe(0);
      expect(await chart.locator("text.empty").textContent()).toBe("No lookups in this period yet");
      expect(await chart.getAttribute("aria-label")).toMatch(/^No lookups from /);
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
      await page.locator("#usage-chart").scrollIntoViewIfNeeded();
      await screenshot(page, `states-empty-chart-${width}`, { viewport: true });
      expect(problems).toEqual([]);
      await close();
    });

    it(`shows /docs/errors styled, within the screen, with nothing from elsewhere (${width} px)`, async () => {
      const { page, problems, close } = await open(width, "/docs/errors#rate_limited");
      await page.getByRole("heading", { name: "API errors" }).waitFor();
      // The stylesheet applied: the page's own font and background, not the browser's defaults.
      const look = (await page.evaluate(
        "(({ margin, fontFamily, backgroundColor }) => ({ margin, font: fontFamily, background: backgroundColor }))(getComputedStyle(document.body))",
      )) as { margin: string; font: string; background: string };
      expect(look.margin).toBe("0px");
      expect(look.font).toMatch(/system-ui/);
      expect(look.background).not.toBe("rgba(0, 0, 0, 0)");
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
      expect(await page.locator("a[href^='http'], link[href^='http'], [src^='http']").count()).toBe(0);
      expect(await page.locator("tr#rate_limited").textContent()).toContain("429");
      await screenshot(page, `states-errors-page-${width}`);
      expect(problems).toEqual([]);
      await close();
    });
  }
});
