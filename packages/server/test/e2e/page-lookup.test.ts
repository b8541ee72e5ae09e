import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { readCsv } from "@iccid/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/index.js";
import { call } from "../http.js";
import { launchChromium, screenshot } from "./browser.js";
import { downloaded, quotaUsed, signedIn, upload } from "./lookup-card.js";
import { chargedIccids, iccidOf, messyCsv } from "./sims-csv.js";

// The account page's Look up card in Chromium: one number, three pasted, a 20,000-row CSV whose answers
// file must equal the one the built `iccid batch` writes for the same file, with usage up by exactly the
// ICCIDs looked up and no main-thread task of 200 ms or more during the upload; the two refusals (quota,
// rate limit) that stop an upload, and Cancel. Screenshots at 1280 px (light) and 375 px (dark). The
// files it reads are page-files.test.ts's.

const CLI = fileURLToPath(new URL("../../../cli/dist/bin.js", import.meta.url));
const run = promisify(execFile);

let server: TestServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } }), launchChromium()]);
  await server.setPlan("small-quota", { rate_limit: 100_000, window_seconds: 60, monthly_lookups: 1_500 });
  await server.setPlan("slow-rate", { rate_limit: 2, window_seconds: 60, monthly_lookups: 10_000_000 });
  dir = mkdtempSync(join(tmpdir(), "iccid-page-lookup-"));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Starts recording the longest main-thread task from now on (browser code as text: the tests compile without the DOM's types). */
async function watchLongTasks(page: Page): Promise<void> {
  // A browser without long-task entries would measure nothing and pass: make sure this one has them.
  expect(await page.evaluate('PerformanceObserver.supportedEntryTypes.includes("longtask")')).toBe(true);
  await page.evaluate(`
    globalThis.longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) globalThis.longestTask = Math.max(globalThis.longestTask, entry.duration);
    }).observe({ type: "longtask" });
  `);
}

/** The id and text of the element that has the focus. */
const focused = (page: Page) => page.evaluate("({ id: document.activeElement?.id, text: document.activeElement?.textContent })") as Promise<{ id?: string; text?: string }>;

describe("Look up on the account page", () => {
  it("answers one number, three pasted and a 20,000-row file as `iccid batch` does, at 1280 px", async () => {
    const user = await server.createAccount();
    const { page, problems } = await signedIn(browser, server.url, user, 1280, "light");
    await page.locator("#lookup").scrollIntoViewIfNeeded();
    await screenshot(page, "lookup-empty-1280", { viewport: true });
    const before = await quotaUsed(server.url, user);

    // One number, written as printed: a card with the answer in words.
    const one = iccidOf(900, 0);
    await page.getByLabel("ICCIDs").fill(one.replace(/(.{4})/g, "$1 "));
    await page.getByRole("button", { name: "Look up", exact: true }).click();
    const card = page.locator(".answer-card");
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain("This is a valid ICCID");
    expect(await card.textContent()).toContain("United Kingdom (GB)");
    expect(await card.locator("dt").allTextContents()).toEqual(["Country", "Issuer", "Issuer prefix", "Source", "Home network", "Account number", "Length", "As given", "Warnings", "Data"]);
    await card.evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-answer-1280", { viewport: true });

    // One that fails its check: the digit that would pass.
    const typo = iccidOf(900, 1).slice(0, -1) + String((Number(iccidOf(900, 1).at(-1)) + 1) % 10);
    await page.getByLabel("ICCIDs").fill(typo);
    await page.getByRole("button", { name: "Look up", exact: true }).click();
    await expect.poll(() => card.textContent()).toContain(`A last digit of ${iccidOf(900, 1).at(-1)} would pass`);

    // Three pasted, one a modem's answer line: counts and a row each.
    const three = [iccidOf(901, 1), `+CCID: ${iccidOf(901, 2)}`, "hello"];
    await page.getByLabel("ICCIDs").fill(three.join("\n"));
    await page.getByRole("button", { name: "Look up", exact: true }).click();
    await page.locator("#lookup-results").waitFor();
    expect(await page.locator("#sum-rows").textContent()).toBe("3");
    expect(await page.locator("#sum-valid").textContent()).toBe("2");
    expect(await page.locator("#sum-failed").textContent()).toBe("1");
    expect(await page.locator(".results-table tbody tr").count()).toBe(3);

    // The file.
    const csv = messyCsv(1, 20_000);
    const path = join(dir, "sims-20000.csv");
    writeFileSync(path, csv);
    await watchLongTasks(page);
    await upload(page, path);
    const longest = (await page.evaluate("globalThis.longestTask")) as number;
    expect(longest, "the longest main-thread task during the upload, in ms").toBeLessThan(200);
    console.log(`longest main-thread task during the 20,000-row upload: ${Math.round(longest)} ms`);
    expect(await page.locator("#sum-rows").textContent()).toBe("20,000");
    expect(await page.locator("#upload-stop").count()).toBe(0);
    await page.getByLabel("Show only failed rows").check();
    const shown = await page.locator(".results-table tbody tr:visible").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-outcome")));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).not.toContain("valid");
    await page.getByLabel("Show only failed rows").uncheck();
    // The first rows scroll in their box, which the keyboard reaches to scroll it.
    await expect.poll(() => page.getByRole("region", { name: "The first rows" }).getAttribute("tabindex")).toBe("0");
    await page.locator("#lookup-results").evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-upload-1280", { viewport: true });
    const answers = await downloaded(page);

    // Usage: up by the ICCIDs looked up (all distinct here), before the CLI's run below adds its own.
    const expected = 2 + 2 + chargedIccids(csv).size;
    expect(await quotaUsed(server.url, user)).toBe(before + expected);
    const byKey = (await call(server.url, "GET", "/api/v1/usage?group_by=api_key", { key: user.apiKey })).body.by_key;
    expect(byKey).toEqual([expect.objectContaining({ key_id: "web_page", name: "Web page", lookups: expected })]);

    // The same file through the built `iccid batch`: the same file of answers, row for row.
    const out = join(dir, "cli-20000.csv");
    await run(process.execPath, [CLI, "batch", path, "--out", out, "--quiet"], {
      env: { PATH: process.env.PATH, HOME: dir, ICCID_CONFIG_DIR: join(dir, "config"), ICCID_BASE_URL: server.url, ICCID_API_KEY: user.apiKey },
    }).catch((error: { code?: number }) => {
      if (error.code !== 3) throw error; // 3: some rows were malformed, as they are here
    });
    const cliRows = readFileSync(out, "utf8").split("\n");
    const pageRows = answers.split("\n");
    expect(pageRows.length).toBe(cliRows.length);
    for (let i = 0; i < cliRows.length; i++) if (pageRows[i] !== cliRows[i]) expect(pageRows[i], `row ${i}`).toBe(cliRows[i]);
    expect(answers).toContain(",'=SUM(A1:A2),"); // the formula guard
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("stops on the quota with what it has, saying why and when it may go on, and charges a second upload only for what it had not answered, at 1280 px", async () => {
    const user = await server.createAccount({ plan: "small-quota" });
    const { page, problems } = await signedIn(browser, server.url, user, 1280, "light");
    const path = join(dir, "sims-3000.csv");
    writeFileSync(path, messyCsv(2, 3_000));
    await upload(page, path);
    const stop = page.locator("#upload-stop");
    expect(await stop.textContent()).toMatch(/^Stopped: this period's lookups are used up\. .* Try the rest again on \w{3} \d+, \d{4}, .*\. The rows answered/);
    expect(await page.locator("#sum-rows").textContent()).toBe("1,000");
    expect(readCsv(await downloaded(page)).records.length).toBe(1 + 1_000); // the header, the answered rows
    await page.locator("#lookup-results").evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-refusal-1280", { viewport: true });
    // With more quota, the same file again: the chunk charged before is a replay, charged nothing (its
    // Idempotency-Key is made from the chunk), so the account pays in all what one run costs.
    const charged = await quotaUsed(server.url, user);
    await server.setPlan("small-quota", { rate_limit: 100_000, window_seconds: 60, monthly_lookups: 10_000 });
    await upload(page, path);
    expect(await page.locator("#sum-rows").textContent()).toBe("3,000");
    const other = await server.createAccount({ plan: "small-quota" });
    const fresh = await signedIn(browser, server.url, other, 1280, "light");
    await upload(fresh.page, path);
    expect(charged).toBeGreaterThan(0);
    expect(await quotaUsed(server.url, user)).toBe(await quotaUsed(server.url, other));
    await fresh.page.context().close();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("works by keyboard alone at 375 px in the dark, and stops on the rate limit", async () => {
    const user = await server.createAccount({ plan: "slow-rate" });
    const { page, problems } = await signedIn(browser, server.url, user, 375, "dark");
    await page.locator("#lookup").scrollIntoViewIfNeeded();
    await screenshot(page, "lookup-empty-375", { viewport: true });

    // Keyboard only: Tab from the top to the box, type, Tab to the button, Enter.
    await page.locator("#account-title").focus();
    for (let i = 0; i < 10 && (await focused(page)).id !== "lookup-iccids"; i++) await page.keyboard.press("Tab");
    expect((await focused(page)).id).toBe("lookup-iccids");
    await page.keyboard.type(iccidOf(902, 0));
    await page.keyboard.press("Tab");
    expect((await focused(page)).text).toBe("Look up");
    await page.keyboard.press("Enter");
    await page.locator(".answer-card").waitFor();
    await page.locator(".answer-card").evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-answer-375", { viewport: true });

    // A file of 2,000 rows: the first chunk takes the second of the plan's two requests a minute, the next is refused.
    const path = join(dir, "sims-2000.csv");
    writeFileSync(path, messyCsv(3, 2_000));
    await page.getByLabel("CSV file").setInputFiles(path);
    await page.getByRole("button", { name: "Look up file" }).focus();
    await page.keyboard.press("Enter");
    await page.locator("#lookup-results").waitFor({ timeout: 60_000 });
    expect(await page.locator("#upload-stop").textContent()).toMatch(/^Stopped: too many requests at once\. .* Try the rest again in (\d+ seconds|1 minute \(at .*\))\./);
    await expect.poll(async () => (await focused(page)).text).toBe("Download CSV");
    expect(await page.locator("#sum-rows").textContent()).toBe("1,000");
    await page.locator("#lookup-results").evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-refusal-375", { viewport: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("says that a card under an international code has no country, and names its issuer's own", async () => {
    const { page, problems } = await signedIn(browser, server.url, await server.createAccount(), 1280, "light");
    // A 1NCE card: +882 names no country, and 1NCE is German.
    await page.getByLabel("ICCIDs").fill("89882806660004909182");
    await page.getByRole("button", { name: "Look up", exact: true }).click();
    const card = page.locator(".answer-card");
    await expect.poll(() => card.textContent()).toContain("This is a valid ICCID");
    expect((await card.locator("dd").allTextContents()).slice(0, 2)).toEqual([
      "None: calling code +882 is for international networks, not a country",
      "1NCE (listed as 1NCE GmbH) · based in Germany (DE)",
    ]);
    await card.evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-international-1280", { viewport: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("Cancel stops after the chunk asked for, keeping every row answered, in order", async () => {
    const { page, problems } = await signedIn(browser, server.url, await server.createAccount(), 1280, "light");
    const path = join(dir, "sims-30000.csv");
    writeFileSync(path, messyCsv(5, 30_000));
    await page.getByLabel("CSV file").setInputFiles(path);
    await page.getByRole("button", { name: "Look up file" }).click();
    await expect.poll(() => page.locator("#upload-bar-label").textContent()).toMatch(/^Looked up [\d,]+ rows…$/);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.locator("#lookup-results").waitFor({ timeout: 60_000 });
    expect(await page.locator("#upload-stop").textContent()).toMatch(/^Cancelled/);
    const rows = Number((await page.locator("#sum-rows").textContent())!.replace(/,/g, ""));
    expect(rows % 1_000).toBe(0);
    expect(rows).toBeGreaterThanOrEqual(1_000);
    expect(rows).toBeLessThan(30_000);
    const records = readCsv(await downloaded(page)).records;
    expect(records.length).toBe(1 + rows);
    expect(records.slice(1).map((r) => r[0])).toEqual(readCsv(readFileSync(path, "utf8")).records.slice(1, 1 + rows).map((r) => r[0]));
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
