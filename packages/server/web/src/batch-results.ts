import { h } from "./dom.js";
import { formatCount, formatRetryAfter, plural } from "./format.js";
import type { PreviewRow, Stop, Tally } from "./upload-protocol.js";

// The results of many lookups (pasted lines or a file): the counts, the first rows in a table that can
// show only the failed ones, and the answers file to download. A run that stopped early says why, and
// when going on is worth it.

/** Table rows added per frame. */
const ROWS_PER_FRAME = 10;
const OUTCOME_WORDS: Record<PreviewRow["outcome"], string> = { valid: "Valid", invalid: "Not valid", failed: "Not an ICCID" };

export interface Results {
  tally: Tally;
  rows: readonly PreviewRow[];
  csv: Blob;
  /** The name the answers file is saved under. */
  fileName: string;
  stop?: Stop;
  /** A word on the input (RunDone's note). */
  note?: string;
}

function figure(term: string, value: number, id: string): HTMLElement {
  return h("div", { class: "figure" }, h("dt", {}, term), h("dd", { id }, formatCount(value)));
}

/** Why a run stopped, in words, with when going on is worth it. */
export function stopWords(stop: Stop): string {
  if (stop.reason === "cancelled") return "Cancelled: the rows answered before are below and in the file.";
  const when = stop.retryAfterSeconds !== undefined ? ` Try the rest again ${formatRetryAfter(stop.retryAfterSeconds)}.` : "";
  const what = stop.code === "quota_exceeded" ? "Stopped: this period's lookups are used up." : stop.code === "rate_limited" ? "Stopped: too many requests at once." : "Stopped.";
  return `${what} ${stop.detail}${when} The rows answered before are below and in the file.`;
}

function countries(tally: Tally): HTMLElement {
  const entries = Object.entries(tally.byCountry).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return h(
    "details",
    { class: "by-country" },
    h("summary", {}, `By country (${plural(entries.length, "country", "countries")})`),
    h(
      "table",
      { class: "plain-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Country"), h("th", { scope: "col", class: "num" }, "Rows"))),
      h("tbody", {}, ...entries.map(([name, n]) => h("tr", {}, h("th", { scope: "row" }, name || "Not known"), h("td", { class: "num" }, formatCount(n))))),
    ),
  );
}

function rowElement(r: PreviewRow): HTMLTableRowElement {
  return h(
    "tr",
    { class: r.outcome, "data-outcome": r.outcome },
    h("td", { "data-label": "Row", class: "num" }, String(r.row)),
    h("td", { "data-label": "ICCID" }, h("code", {}, r.input || "(blank)")),
    h("td", { "data-label": "Answer" }, h("span", { class: `status ${r.outcome === "valid" ? "ok" : "bad"}` }, OUTCOME_WORDS[r.outcome]), r.note ? ` · ${r.note}` : ""),
    h("td", { "data-label": "Country" }, r.outcome === "failed" ? "" : r.country || h("span", { class: "muted" }, "Not known")),
    h("td", { "data-label": "Issuer" }, r.outcome === "failed" ? "" : r.issuer || h("span", { class: "muted" }, "Not known")),
  );
}

function emptyTable(): HTMLTableElement {
  return h(
    "table",
    { class: "results-table" },
    h("caption", { class: "visually-hidden" }, "The first rows and their answers"),
    h("colgroup", {}, h("col", { class: "col-row" }), h("col", { class: "col-iccid" }), h("col", { class: "col-answer" }), h("col"), h("col")),
    h(
      "thead",
      {},
      h("tr", {}, ...["Row", "ICCID as given", "Answer", "Country", "Issuer"].map((name) => h("th", { scope: "col" }, name))),
    ),
    h("tbody"),
  );
}

/** The results block, with its download and its filter wired. */
export function resultsView(results: Results): HTMLElement {
  const { tally, rows } = results;
  const download = h("button", { type: "button", class: "button primary", id: "download-csv" }, "Download CSV");
  download.addEventListener("click", () => {
    const link = h("a", { href: URL.createObjectURL(results.csv), download: results.fileName, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  });
  const onlyFailed = h("input", { type: "checkbox", id: "only-failed" });
  const table = emptyTable();
  const hides = (tr: HTMLTableRowElement) => onlyFailed.checked && tr.dataset.outcome === "valid";
  // The rows are made and go in a few at a frame: making and laying out a hundred table rows at once is a
  // long task on a slow machine.
  const trs: HTMLTableRowElement[] = [];
  const addSome = () => {
    for (const end = Math.min(trs.length + ROWS_PER_FRAME, rows.length); trs.length < end; ) {
      const tr = rowElement(rows[trs.length]!);
      tr.hidden = hides(tr);
      trs.push(tr);
      table.tBodies[0]!.append(tr);
    }
    if (trs.length < rows.length) requestAnimationFrame(addSome);
  };
  addSome();
  const empty = h("p", { class: "muted", hidden: true }, "No failed rows among these.");
  onlyFailed.addEventListener("change", () => {
    for (const tr of trs) tr.hidden = hides(tr);
    empty.hidden = trs.length < rows.length || trs.some((tr) => !tr.hidden);
  });
  const shownRows = rows.length < tally.rows ? `The first rows of ${formatCount(tally.rows)}, and the first failed ones; the file has them all.` : "";
  return h(
    "div",
    { class: "results", id: "lookup-results" },
    results.stop && h("p", { class: "error notice", role: "alert", id: "upload-stop" }, stopWords(results.stop)),
    results.note && h("p", { class: "error notice", id: "upload-note" }, `Note: ${results.note}.`),
    h(
      "dl",
      { class: "figures", id: "lookup-summary" },
      figure("Rows", tally.rows, "sum-rows"),
      figure("Valid", tally.valid, "sum-valid"),
      figure("Not valid", tally.invalid, "sum-invalid"),
      figure("Not an ICCID", tally.failed, "sum-failed"),
      figure("Issuer not known", tally.unknownIssuer, "sum-unknown-issuer"),
    ),
    countries(tally),
    h("div", { class: "results-actions" }, download, h("label", { class: "check" }, onlyFailed, "Show only failed rows")),
    shownRows && h("p", { class: "muted" }, shownRows),
    scrollBox(table),
    empty,
  );
}

/**
 * The table's box: on a wide screen it scrolls inside the page, and is then a tab stop, so that the keyboard
 * can scroll it; on a phone it runs with the page and is not one (a stop that scrolls nothing is a trap).
 */
function scrollBox(table: HTMLTableElement): HTMLElement {
  const box = h("div", { class: "table-scroll", role: "region", "aria-label": "The first rows" }, table);
  const check = () => {
    if (box.scrollHeight > box.clientHeight || box.scrollWidth > box.clientWidth) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
  };
  // The box changes size with the window; what it holds, as rows go in or are hidden.
  const observer = new ResizeObserver(check);
  observer.observe(box);
  observer.observe(table);
  return box;
}
