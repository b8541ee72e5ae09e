import type { Issuer, LookupResult } from "@iccid/core";
import { h } from "./dom.js";

// One ICCID's answer in words: valid or why not, the digit that would pass, country, issuer with its
// source and confidence, home network, warnings. Every member of the answer has a line.

const ORIGIN_WORDS: Record<Issuer["origin"], string> = {
  "itu-e118": "the ITU-T E.118 list of issuer numbers",
  "numbering-rule": "a national numbering rule, read through the list of mobile network codes",
  curated: "public evidence collected in this server's registry",
  custom: "this server's own prefix list, set by its operator",
};
const CONFIDENCE_WORDS: Record<Issuer["confidence"], string> = {
  registered: "registered to this issuer",
  inferred: "inferred, not registered",
};

/** The digits in groups of four, as printed on a card. */
export function grouped(iccid: string): string {
  return iccid.replace(/(.{4})(?=.)/g, "$1 ");
}

function line(term: string, ...value: (Node | string)[]): HTMLElement[] {
  return [h("dt", {}, term), h("dd", {}, ...value)];
}

function verdict(result: LookupResult): string {
  if (result.valid) return "This is a valid ICCID: its format and its check digit are right.";
  if (!result.checks.format) return "This is not a valid ICCID: it does not have an ICCID's shape (89, then 16 to 20 more digits).";
  return "This is not a valid ICCID: its last digit, the check digit, does not match the digits before it.";
}

/**
 * The country whose numbering the card uses, and its calling code. Under an international code there is
 * none: the answer then names no country but its issuer's own (docs/api.md, "The lookup result").
 */
function countryWords({ country, issuer, calling_code: code }: LookupResult): string {
  const dialled = code ? ` · calling code +${code}` : "";
  if (country) return `${country.name} (${country.iso2})${dialled}`;
  return issuer?.country && code ? `None: calling code +${code} is for international networks, not a country` : `Not known${dialled}`;
}

/** The issuer's name, the name it is registered under, and its own country where the number's is another. */
function issuerWords(issuer: Issuer, country: LookupResult["country"]): string {
  const listed = issuer.registered_name ? ` (listed as ${issuer.registered_name})` : "";
  const home = issuer.country && issuer.country.iso2 !== country?.iso2 ? ` · based in ${issuer.country.name} (${issuer.country.iso2})` : "";
  return `${issuer.name}${listed}${home}`;
}

/** What would make a number that fails its check pass, when the answer says. */
function remedies(result: LookupResult): HTMLElement | null {
  const { expected_check_digit: expected, missing_check_digit: missing } = result.checks;
  if (expected === undefined && missing === undefined) return null;
  return h(
    "ul",
    { class: "remedies" },
    expected !== undefined && h("li", {}, `A last digit of ${expected} would pass: the number may have a typo, perhaps in its check digit.`),
    missing !== undefined && h("li", {}, `If it was printed without its check digit, the full number ends in ${missing}: ${grouped(result.iccid + missing)}.`),
  );
}

/** The card for a lookup that has an answer. */
export function answerCard(result: LookupResult): HTMLElement {
  const { issuer, country, home_network: network } = result;
  return h(
    "article",
    { class: `answer-card ${result.valid ? "ok" : "bad"}`, "aria-labelledby": "answer-title" },
    h("h3", { id: "answer-title", class: "answer-iccid", tabindex: -1 }, grouped(result.iccid)),
    h("p", { class: `verdict ${result.valid ? "ok" : "bad"}` }, verdict(result)),
    remedies(result),
    h(
      "dl",
      { class: "answer-facts" },
      ...line("Country", countryWords(result)),
      ...line("Issuer", issuer ? issuerWords(issuer, country) : "Not known: no source names this number's issuer prefix"),
      ...(issuer
        ? [
            ...line("Issuer prefix", h("code", {}, issuer.prefix)),
            ...line("Source", `From ${ORIGIN_WORDS[issuer.origin]}; ${CONFIDENCE_WORDS[issuer.confidence]}.`),
          ]
        : []),
      ...line("Home network", network ? `Mobile country code ${network.mcc}, network code ${network.mnc}` : "Not encoded in this number"),
      ...line("Account number", result.account_number ? h("code", {}, result.account_number) : "Not known without the issuer"),
      ...line("Length", `${result.length} digits, check digit ${result.check_digit}`),
      ...line("As given", h("code", {}, result.input)),
      ...line(
        "Warnings",
        result.warnings.length === 0 ? "None" : h("ul", { class: "warnings" }, ...result.warnings.map((w) => h("li", {}, `${w.message[0]!.toUpperCase()}${w.message.slice(1)}.`))),
      ),
      ...line("Data", `Issuer data edition ${result.data_version}`),
    ),
  );
}

/** The card for an input that is not an ICCID at all (the server's 422, with its reason). */
export function notAnIccidCard(input: string, why: string): HTMLElement {
  return h(
    "article",
    { class: "answer-card bad", "aria-labelledby": "answer-title" },
    h("h3", { id: "answer-title", class: "answer-iccid", tabindex: -1 }, input.length > 60 ? `${input.slice(0, 60)}…` : input),
    h("p", { class: "verdict bad" }, `This is not an ICCID: ${why}.`),
    h("p", { class: "muted" }, "Nothing was charged for it."),
  );
}
