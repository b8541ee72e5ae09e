import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import type { TestAccount } from "../../test-support/index.js";
import { call } from "../http.js";
import { openPage } from "./browser.js";

// The account page's Look up card, as the browser tests drive it.

/** A page signed in as `account`, at `width` px, once the Look up card is there; with the console problems it logged. */
export async function signedIn(browser: Browser, url: string, account: TestAccount, width: number, colorScheme: "light" | "dark"): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await openPage(browser, url, { viewport: { width, height: width > 500 ? 900 : 812 }, colorScheme, signInAs: account });
  await page.getByRole("heading", { name: "Look up" }).waitFor();
  return { page, problems };
}

/** The lookups charged to the account this month, from its usage report. */
export async function quotaUsed(url: string, account: TestAccount): Promise<number> {
  const usage = await call(url, "GET", "/api/v1/usage", { key: account.apiKey });
  expect(usage.status, usage.text).toBe(200);
  return usage.body.quota.used as number;
}

/** Uploads a file through the "CSV file" input and waits for the end of the run. */
export async function upload(page: Page, path: string): Promise<void> {
  await page.getByLabel("CSV file").setInputFiles(path);
  await page.getByLabel("ICCID column").waitFor();
  expect(await page.getByLabel("ICCID column").locator("option:checked").textContent()).toBe("Found: ICCID (column 2)");
  await page.getByRole("button", { name: "Look up file" }).click();
  await page.locator("#lookup-results").waitFor({ timeout: 60_000 });
}

/** The answers file the "Download CSV" button saves. */
export async function downloaded(page: Page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  return readFileSync(await download.path(), "utf8");
}
