import type { LookupResult } from "../src/schemas/lookup.js";

/** A lookup result with every member set: an invalid check digit, an issuer, a home network, two warnings. */
export const result: LookupResult = {
  iccid: "89014100000000000004",
  input: "89014100000000000004",
  valid: false,
  length: 20,
  checks: { format: true, luhn: "invalid", expected_check_digit: "7" },
  check_digit: "4",
  mii: "89",
  calling_code: "1",
  country: { iso2: "US", name: "United States" },
  issuer: { prefix: "8901410", name: "AT&T", source: "custom", registered_name: "=AT&T Mobility, LLC", origin: "numbering-rule", confidence: "inferred", country: { iso2: "US", name: "United States" } },
  home_network: { mcc: "310", mnc: "410" },
  account_number: "000000000000",
  warnings: [{ code: "hex_digits", message: "m" }, { code: "non_standard_length", message: "m" }],
  data_version: "test",
};
