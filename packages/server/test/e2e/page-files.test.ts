import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/index.js";
import { launchChromium, screenshot } from "./browser.js";
import { downloaded, quotaUsed, signedIn, upload } from "./lookup-card.js";
import { iccidOf, messyCsv } from "./sims-csv.js";

// The files the account page's Look up card reads, in Chromium: a finished upload at 375 px, a file that
// does not say which column holds the ICCIDs, one separated by semicolons, and one that is not UTF-8 text.

let server: TestServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } }), launchChromium()]);
  dir = mkdtempSync(join(tmpdir(), "iccid-page-files-"));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("Files on the account page's Look up card", () => {
  it("shows a finished upload at 375 px", async () => {
    const { page, problems } = await signedIn(browser, server.url, await server.createAccount(), 375, "light");
    const path = join(dir, "sims-1500.csv");
    writeFileSync(path, messyCsv(4, 1_500));
    await upload(page, path);
    expect(await page.locator("#sum-rows").textContent()).toBe("1,500");
    const box = `document.querySelector('[aria-label="The first rows"]')`;
    // It runs with the page, so it is no tab stop.
    expect(await page.evaluate(`[${box}.scrollHeight > ${box}.clientHeight + 1, getComputedStyle(${box}).overflowY, ${box}.getAttribute("tabindex")]`)).toEqual([false, "visible", null]);
    // Each outcome ("Not valid") reads on one line, its reason running on after it, not in a column of its own.
    const outcomes = await page.locator(".results-table .status").evaluateAll((spans) => spans.map((s) => ({ text: s.textContent, height: s.getBoundingClientRect().height })));
    const oneLine = outcomes.find((o) => o.text === "Valid")!.height;
    expect(outcomes.filter((o) => o.text !== "Valid").length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.height > oneLine)).toEqual([]);
    // A row that is not an ICCID shows no empty Country and Issuer lines.
    const failedRow = page.locator('.results-table tr[data-outcome="failed"]').first();
    const failedLabels = await failedRow.evaluate((row) =>
      [...row.querySelectorAll("td")].filter((td) => td.getClientRects().length > 0).map((td) => td.dataset.label),
    );
    expect(failedLabels).toEqual(["Row", "ICCID", "Answer"]);
    // Its reason wraps, and every line of it starts where the outcome starts, not under the label.
    const answerLines = await failedRow.locator('td[data-label="Answer"]').evaluate((td) => {
      const range = td.ownerDocument.createRange();
      range.selectNodeContents(td);
      const rects = [...range.getClientRects()];
      return {
        lines: new Set(rects.map((r) => Math.round(r.top))).size,
        left: Math.min(...rects.map((r) => r.left)),
        outcome: td.querySelector(".status")!.getBoundingClientRect().left,
      };
    });
    expect(answerLines.lines).toBeGreaterThan(1);
    expect(answerLines.left).toBeCloseTo(answerLines.outcome, 0);
    await page.locator("#lookup-results").evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-upload-375", { viewport: true });
    await failedRow.evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-upload-failed-375", { viewport: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });
  it("asks which column holds the ICCIDs when the file does not say, and reads the one picked", async () => {
    const user = await server.createAccount();
    const { page, problems } = await signedIn(browser, server.url, user, 1280, "light");
    const rows = ["customer,card,note", "Acme,,no card yet", ...Array.from({ length: 30 }, (_, n) => `Customer ${n},${iccidOf(7, n)},ref ${n}`)];
    const path = join(dir, "picked-column.csv");
    writeFileSync(path, rows.join("\n") + "\n");
    await page.getByLabel("CSV file").setInputFiles(path);
    const column = page.getByLabel("ICCID column");
    await column.waitFor();
    expect(await column.locator("option:checked").textContent()).toBe("Pick the column that holds the ICCIDs");
    await page.getByRole("button", { name: "Look up file" }).click();
    await expect.poll(() => page.locator("#lookup-error").textContent()).toBe("Pick the column that holds the ICCIDs first.");
    await column.selectOption({ label: "Column 2: card" });
    await page.getByRole("button", { name: "Look up file" }).click();
    await page.locator("#lookup-results").waitFor({ timeout: 60_000 });
    expect([await page.locator("#sum-rows").textContent(), await page.locator("#sum-valid").textContent()]).toEqual(["31", "30"]);
    expect((await downloaded(page)).split("\n")[0]).toMatch(/^customer,card,note,/);
    expect(await quotaUsed(server.url, user)).toBe(30);
    expect(problems).toEqual([]);
    await page.context().close();
  });
  it("reads a file separated by semicolons, as spreadsheets write CSV where a comma is the decimal mark", async () => {
    const user = await server.createAccount();
    const { page, problems } = await signedIn(browser, server.url, user, 1280, "light");
    const rows = ["Kunde;ICCID;Betrag", ...Array.from({ length: 20 }, (_, n) => `Kunde ${n};${iccidOf(8, n)};"1,${n}"`)];
    const path = join(dir, "semicolons.csv");
    writeFileSync(path, rows.join("\r\n") + "\r\n;;\r\n;;\r\n"); // below the data, rows of separators alone: no rows
    await upload(page, path);
    expect([await page.locator("#sum-rows").textContent(), await page.locator("#sum-valid").textContent()]).toEqual(["20", "20"]);
    await page.locator("#lookup-results").evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-semicolons-1280", { viewport: true });
    const answers = (await downloaded(page)).split("\n");
    expect(answers[0]).toMatch(/^Kunde,ICCID,Betrag,/);
    expect(answers[1]).toMatch(new RegExp(`^Kunde 0,${iccidOf(8, 0)},"1,0",`));
    expect(await quotaUsed(server.url, user)).toBe(20);
    expect(problems).toEqual([]);
    await page.context().close();
  });
  it("refuses a file that is not text, or not UTF-8, as soon as it is chosen, and says what was not UTF-8 past its start", async () => {
    const { page, problems } = await signedIn(browser, server.url, await server.createAccount(), 1280, "light");
    const path = join(dir, "sims.xlsx");
    writeFileSync(path, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00]));
    await page.getByLabel("CSV file").setInputFiles(path);
    await expect.poll(() => page.locator("#lookup-error").textContent()).toContain("sims.xlsx is not a text file");
    expect(await page.getByRole("button", { name: "Look up file" }).isHidden()).toBe(true);
    const windows1252 = join(dir, "export.csv"); // as Excel on Windows saves a plain "CSV"
    writeFileSync(windows1252, Buffer.concat([Buffer.from("Kunde;ICCID\r\nM"), Buffer.from([0xfc]), Buffer.from(`ller GmbH;${iccidOf(9, 0)}\r\n`)]));
    await page.getByLabel("CSV file").setInputFiles(windows1252);
    await expect.poll(() => page.locator("#lookup-error").textContent()).toContain('export.csv is not UTF-8 text; save it as UTF-8 (in Excel: "CSV UTF-8")');
    expect(await page.getByRole("button", { name: "Look up file" }).isHidden()).toBe(true);
    // Past its first block (Chromium reads a file in blocks of hundreds of KB) a file is read on, and what
    // was not UTF-8 is said beside the answers.
    const late = join(dir, "late.csv");
    const long = Array.from({ length: 70 }, (_, n) => `A${n};${iccidOf(9, 0)};${"x".repeat(30_000)}\r\n`).join("");
    writeFileSync(late, Buffer.concat([Buffer.from(`Kunde;ICCID;Notiz\r\n${long}M`), Buffer.from([0xfc]), Buffer.from(`ller GmbH;${iccidOf(9, 1)};z\r\n`)]));
    await upload(page, late);
    expect(await page.locator("#sum-rows").textContent()).toBe("71");
    await page.locator("#lookup-results").evaluate((node) => node.scrollIntoView());
    await screenshot(page, "lookup-not-utf8-1280", { viewport: true });
    expect(await page.locator("#upload-note").textContent()).toBe('Note: 1 character of late.csv past its start was not UTF-8 and was read as "\uFFFD"; save it as UTF-8 (in Excel: "CSV UTF-8") to keep them.');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
