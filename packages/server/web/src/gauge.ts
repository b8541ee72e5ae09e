import type { Usage } from "@iccid/core";
import { h, s } from "./dom.js";
import { formatCount, formatInstant, formatShare } from "./format.js";

// Past these shares of the quota the bar changes colour, early enough to act before calls are refused.
const WARN_AT = 0.8;
const FULL_AT = 1;

/** The monthly quota: a bar (role=meter for assistive tech) and the figures beside it. */
export function quotaGauge(quota: Usage["quota"]): HTMLElement {
  const share = quota.limit > 0 ? Math.min(1, quota.used / quota.limit) : 1;
  const level = share >= FULL_AT ? "full" : share >= WARN_AT ? "warn" : "ok";
  // Any use at all shows as a sliver: a bar that looks empty after a call reads as "nothing counted".
  const width = quota.used > 0 ? Math.max(share * 100, 0.75) : 0;
  const text = `${formatCount(quota.used)} of ${formatCount(quota.limit)} lookups used (${formatShare(quota.used, quota.limit)})`;

  return h(
    "div",
    { class: "quota" },
    h(
      "div",
      {
        class: `gauge ${level}`,
        role: "meter",
        "aria-label": "Lookups used this period",
        "aria-valuemin": 0,
        "aria-valuemax": quota.limit,
        "aria-valuenow": Math.min(quota.used, quota.limit),
        "aria-valuetext": text,
      },
      s(
        "svg",
        { viewBox: "0 0 100 10", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" },
        s("rect", { class: "gauge-track", x: 0, y: 0, width: 100, height: 10 }),
        s("rect", { class: "gauge-fill", x: 0, y: 0, width: width.toFixed(2), height: 10 }),
      ),
    ),
    h("p", { class: "gauge-caption", id: "quota-caption" }, text),
    h(
      "dl",
      { class: "figures" },
      figure("Used", formatCount(quota.used), "quota-used"),
      figure("Remaining", formatCount(quota.remaining), "quota-remaining"),
      figure("Monthly limit", formatCount(quota.limit), "quota-limit"),
      figure("Resets", h("time", { datetime: quota.resets_at }, formatInstant(quota.resets_at)), "quota-resets"),
    ),
  );
}

/** One labelled figure of a <dl>; the id lets tests and users' scripts find the number. */
export function figure(label: string, value: Node | string, id: string): HTMLElement {
  return h("div", { class: "figure" }, h("dt", {}, label), h("dd", { id }, value));
}
