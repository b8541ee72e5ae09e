import { existsSync, mkdirSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";

// Debian's Chromium (apt-get install chromium); ICCID_CHROMIUM points elsewhere, e.g. on a Mac.
export const CHROMIUM = process.env.ICCID_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = new URL("./screenshots/", import.meta.url);

/** Headless, and quiet: no background traffic that would show up as requests we did not make. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (or set ICCID_CHROMIUM to a Chromium binary).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      // Containers often have a 64 MB /dev/shm, where Chromium crashes mid-test; Debian's launcher means
      // to add this flag then but its check can misfire, so say it ourselves.
      "--disable-dev-shm-usage",
    ],
  });
}

/**
 * Watches a page for what must never happen on the account page: a request to anywhere but our server,
 * a CSP violation or other console error, an uncaught exception.
 */
export function watchPage(page: Page, origin: string): { problems: string[] } {
  const problems: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith("data:")) problems.push(`external request: ${url}`);
  });
  page.on("console", (message) => {
    // Chromium logs every 401 answer as an error; the page expects them (not signed in, wrong password).
    if (/Failed to load resource: .* status of 401/.test(message.text())) return;
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { problems };
}

/**
 * A fixed locale and zone so screenshots read the same on every machine; light unless `colorScheme` says
 * otherwise. Downloads are accepted (Playwright's default), so a test can read the files the page saves.
 */
export async function newContext(
  browser: Browser,
  viewport: { width: number; height: number },
  { colorScheme = "light" }: { colorScheme?: "light" | "dark" } = {},
): Promise<BrowserContext> {
  return browser.newContext({ viewport, locale: "en-US", timezoneId: "UTC", colorScheme, reducedMotion: "reduce" });
}

/** A page opened by openPage: the page, what watchPage saw go wrong on it, and how to close its context. */
export interface OpenPage {
  page: Page;
  problems: string[];
  close: () => Promise<void>;
}

/**
 * A page in a context of its own (newContext, so `viewport` and `colorScheme` as there), watched by
 * watchPage from the first request, at `path` on `origin` (the account page unless told). With
 * `signInAs` it then signs in as that account; the caller waits for what follows, as after signIn.
 */
export async function openPage(
  browser: Browser,
  origin: string,
  {
    viewport,
    colorScheme,
    path = "/account",
    signInAs,
  }: { viewport: { width: number; height: number }; colorScheme?: "light" | "dark"; path?: string; signInAs?: { email: string; password: string } },
): Promise<OpenPage> {
  const context = await newContext(browser, viewport, { colorScheme });
  const page = await context.newPage();
  const { problems } = watchPage(page, origin);
  await page.goto(`${origin}${path}`);
  if (signInAs) await signIn(page, signInAs.email, signInAs.password);
  return { page, problems, close: () => context.close() };
}

/** Types the email and password into the sign-in form and presses Enter; the caller waits for what follows. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.locator("#sign-in-email").fill(email);
  await page.locator("#sign-in-password").fill(password);
  await page.locator("#sign-in-password").press("Enter");
}

/**
 * The sign-in form ready for the password alone: the email still holds `email` and the password input has
 * the focus, as the form leaves it after a wrong password or a session that ended.
 */
export async function expectPasswordToRetype(page: Page, email: string): Promise<void> {
  expect(await page.locator("#sign-in-email").inputValue()).toBe(email);
  await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("sign-in-password");
}

/** The whole page by default; `viewport` for modal states, where a full-page shot cuts the backdrop off. */
export async function screenshot(page: Page, name: string, { viewport = false } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: !viewport });
}
