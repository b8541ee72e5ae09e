import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeys } from "../../src/services/api-keys.js";
import { startTestServer, type TestServer } from "../../test-support/index.js";
import { billingPeriod, floorHour, systemClock } from "../../src/time.js";
import { launchChromium, openPage, screenshot } from "./browser.js";

// The usage chart with six-figure days: every y label whole inside the chart, on a desktop and on a
// phone; and Refresh brings the keys table up to date too. Screenshots: test/e2e/screenshots/.

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ plan: { monthly_lookups: 10_000_000 } }), launchChromium()]);
  // 150,000 lookups today, charged through the store as the API would.
  const subscription = (await server.store.getSubscription(server.owner.id))!;
  const now = Date.now();
  const charged = await server.store.charge({
    account_id: server.owner.id,
    key_id: server.owner.keyId,
    period_start: billingPeriod(subscription.period_anchor, now).start,
    bucket_start: floorHour(now),
    lookups: 150_000,
    quota_limit: 10_000_000,
  });
  expect(charged.charged).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("usage chart and Refresh", () => {
  for (const [width, height] of [[1280, 900], [375, 812]] as const) {
    it(`shows every y label whole at ${width} px, and Refresh reloads the keys`, async () => {
      const { page, problems, close } = await openPage(browser, server.url, { viewport: { width, height }, signInAs: server.owner });
      await page.locator("#usage-chart svg.chart").waitFor();

      // Each label's box, in the chart's own coordinates, starts inside the chart.
      const labels = await page.locator("#usage-chart svg.chart text.y-tick").evaluateAll((nodes) =>
        nodes.map((node) => ({ text: node.textContent, left: (node as unknown as { getBBox(): { x: number } }).getBBox().x })),
      );
      expect(labels.map((l) => l.text)).toContain("150,000");
      for (const label of labels) expect(label.left, `"${label.text}"`).toBeGreaterThanOrEqual(0);
      await page.locator("#usage-chart").scrollIntoViewIfNeeded();
      await screenshot(page, `usage-chart-${width}`, { viewport: true });

      // A key made elsewhere (another tab, the CLI) shows up on Refresh, without reloading the page.
      const name = `made elsewhere at ${width}`;
      await new ApiKeys(server.store, systemClock).create(server.owner.id, name);
      expect(await page.locator("tr", { hasText: name }).count()).toBe(0);
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.locator("tr", { hasText: name }).waitFor();
      expect(problems).toEqual([]);
      await close();
    });
  }
});
