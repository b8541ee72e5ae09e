import type { Usage } from "@iccid/core";
import { api, describeProblem } from "./api.js";
import { dailyChart, dailyTable } from "./chart.js";
import { announce, byId, h, showError } from "./dom.js";
import { formatCount, formatDate } from "./format.js";
import { figure, quotaGauge } from "./gauge.js";

/** The usage card: quota gauge, daily chart and totals for the current period, with a Refresh button. */
export class UsagePanel {
  readonly #quota = byId("quota");
  readonly #chart = byId("usage-chart");
  readonly #period = byId("usage-period");
  readonly #error = byId("usage-error");
  readonly #refresh = byId<HTMLButtonElement>("usage-refresh");
  #usage: Usage | undefined;
  #drawnWidth = 0;

  /** `sessionLost` takes over when a call failed because the session ended, and then returns true. */
  constructor(private readonly sessionLost: (error: unknown) => boolean) {
    this.#refresh.addEventListener("click", () => void this.load(true));
    // Redraw the chart at its new width (phone rotated, window resized); the data stays.
    new ResizeObserver(() => {
      if (this.#usage && this.#chartWidth() !== this.#drawnWidth) this.#renderChart(this.#usage);
    }).observe(this.#chart);
  }

  async load(announced = false): Promise<void> {
    this.#refresh.disabled = true;
    this.#chart.setAttribute("aria-busy", "true");
    try {
      const usage = await api.usage();
      showError(this.#error, null);
      this.render(usage);
      if (announced) announce(`Usage updated: ${formatCount(usage.quota.used)} lookups used.`);
    } catch (error) {
      if (this.sessionLost(error)) return;
      showError(this.#error, `Could not load usage. ${describeProblem(error)}`);
    } finally {
      this.#refresh.disabled = false;
      this.#chart.removeAttribute("aria-busy");
    }
  }

  clear(): void {
    this.#usage = undefined;
    this.#quota.replaceChildren();
    this.#chart.replaceChildren();
    this.#period.textContent = "";
    showError(this.#error, null);
  }

  render(usage: Usage): void {
    this.#usage = usage;
    const { subscription, period } = usage;
    // The period's end is exclusive: the last day shown is the day before it.
    const lastDay = new Date(Date.parse(period.to) - 1).toISOString();
    this.#period.replaceChildren(
      `Plan ${subscription.plan} · ${formatDate(period.from)} – ${formatDate(lastDay)} · subscription `,
      h("span", { class: `status ${subscription.status === "active" ? "ok" : "bad"}` }, subscription.status.replace("_", " ")),
    );
    this.#quota.replaceChildren(quotaGauge(usage.quota));
    this.#renderChart(usage);
  }

  #chartWidth(): number {
    return Math.max(260, Math.floor(this.#chart.clientWidth));
  }

  #renderChart(usage: Usage): void {
    this.#drawnWidth = this.#chartWidth();
    this.#chart.replaceChildren(
      h("h3", { class: "chart-title" }, "Daily lookups"),
      h(
        "dl",
        { class: "figures totals" },
        figure("Lookups this period", formatCount(usage.totals.lookups), "total-lookups"),
        figure("Requests this period", formatCount(usage.totals.requests), "total-requests"),
      ),
      dailyChart(usage.series, this.#drawnWidth),
      dailyTable(usage.series),
    );
  }
}
