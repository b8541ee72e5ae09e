// Two lookup answers the contract accepts: every field present and filled, and every optional one absent or null.
export const full = () => ({
  iccid: "89441000000000000018",
  input: "8944 1000 0000 0000 0018",
  valid: false,
  length: 20,
  checks: { format: true, luhn: "invalid", expected_check_digit: "8", missing_check_digit: "3" },
  check_digit: "8",
  mii: "89",
  calling_code: "44",
  country: { iso2: "GB", name: "United Kingdom" },
  issuer: { prefix: "894410", name: "Vodafone", source: "itu-e118", registered_name: "Vodafone plc", origin: "curated", confidence: "inferred", country: { iso2: "GB", name: "United Kingdom" } },
  home_network: { mcc: "234", mnc: "15" },
  account_number: "0000000000001",
  warnings: [
    { code: "non_standard_length", message: "unusual" },
    {
      code: "ambiguous_numbering",
      message: "two readings",
      candidates: [
        { country: { iso2: "US", name: "United States" }, issuer: { prefix: "8931038", name: "AT&T", source: "itu-e118", origin: "curated", confidence: "inferred", country: null }, home_network: { mcc: "310", mnc: "380" } },
        { country: { iso2: "NL", name: "Netherlands" }, issuer: null, home_network: null },
      ],
    },
    { code: "imsi_country_mismatch", message: "DE, not GB" },
  ],
  data_version: "v1",
  imsi: {
    imsi: "262075201234567",
    mcc: "262",
    mnc: "07",
    country: { iso2: "DE", name: "Germany" },
    network: { name: "O2", operator: "Telefónica Germany" },
    mvno: { name: "Fonic Prepaid", imsi_prefix: "26207520" },
  },
});
export const sparse = () => ({ iccid: "8944100000000000001F", input: "x", valid: false, length: 19, checks: { format: true, luhn: "not_applicable" }, check_digit: "F", mii: "89", calling_code: null, country: null, issuer: null, home_network: null, account_number: null, warnings: [], data_version: "v1" });
