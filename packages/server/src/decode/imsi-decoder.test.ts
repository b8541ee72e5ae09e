import { describe, expect, it } from "vitest";
import { ImsiDecoder, withImsi } from "./imsi-decoder.js";
import { IccidDecoder } from "./decoder.js";
import type { Network } from "./registry/network-codes.js";

const net = (mcc: string, mnc: string, iso2: string, name: string, operational = true): Network => ({
  mcc,
  mnc,
  iso2,
  name,
  operator: null,
  operational,
  source: "test",
});

// A small network list with the cases the real one has: an MCC of two-digit MNCs, one of three-digit
// MNCs whose MCC-MNC the list names in several countries (310-260 in PR, US and VI, as the real list does), one numbered both ways, an international MCC.
const decoder = new ImsiDecoder(
  [
    net("262", "01", "DE", "Telekom"),
    net("262", "07", "DE", "O2"),
    net("310", "260", "PR", "T-Mobile"),
    net("310", "260", "US", "T-Mobile"),
    net("310", "260", "VI", "T-Mobile"),
    net("310", "410", "US", "AT&T"),
    net("338", "05", "JM", "Digicel"),
    net("338", "180", "JM", "Cable & Wireless"),
    net("901", "03", "", "Iridium"),
    net("234", "15", "GB", "Old name", false),
    net("234", "15", "GB", "Vodafone UK"),
  ],
  [{ prefix: "26207520", name: "Fonic Prepaid", custom: false }],
);

describe("ImsiDecoder", () => {
  it("splits the MNC at the length the list numbers the MCC's networks with", () => {
    expect(decoder.read("262011234567890")).toMatchObject({ ok: true, answer: { mcc: "262", mnc: "01", network: { name: "Telekom" } } });
    expect(decoder.read("310410123456789")).toMatchObject({ ok: true, answer: { mnc: "410", network: { name: "AT&T" } } });
    // An MNC the list does not name still splits where the MCC's networks all do, with no network named.
    expect(decoder.read("262991234567890")).toMatchObject({ ok: true, answer: { mnc: "99", network: null, country: { iso2: "DE" } } });
  });

  it("leaves the MNC unknown where the MCC is numbered both ways and none of its networks matches", () => {
    expect(decoder.read("338051234567890")).toMatchObject({ ok: true, answer: { mnc: "05", network: { name: "Digicel" } } });
    expect(decoder.read("338180123456789")).toMatchObject({ ok: true, answer: { mnc: "180", network: { name: "Cable & Wireless" } } });
    expect(decoder.read("338991234567890")).toMatchObject({ ok: true, answer: { mnc: null, network: null, country: { iso2: "JM" } } });
  });

  it("gives an MCC-MNC listed in several countries the MCC's own country, and an international one none", () => {
    expect(decoder.read("310260123456789")).toMatchObject({ ok: true, answer: { country: { iso2: "US" } } });
    expect(decoder.read("901031234567890")).toMatchObject({ ok: true, answer: { mnc: "03", country: null, network: { name: "Iridium" } } });
    expect(decoder.read("234151234567890")).toMatchObject({ ok: true, answer: { network: { name: "Vodafone UK" } } });
  });

  it("names the MVNO of the longest range holding the IMSI", () => {
    expect(decoder.read("262075201234567")).toMatchObject({ ok: true, answer: { mvno: { name: "Fonic Prepaid", imsi_prefix: "26207520" } } });
    expect(decoder.read("262075211234567")).toMatchObject({ ok: true, answer: { mvno: null } });
  });

  it("refuses a malformed IMSI and an MCC the list does not have", () => {
    expect(decoder.read("26201")).toMatchObject({ ok: false, error: { code: "too_short" } });
    expect(decoder.read("505011234567890")).toEqual({ ok: false, error: { code: "unknown_mcc", message: "the IMSI's MCC 505 is not in the network list" } });
  });

  it("reads the package's own network list and MVNO ranges", () => {
    expect(ImsiDecoder.fromRegistry().read("262075201234567")).toMatchObject({ ok: true, answer: { mnc: "07", mvno: { name: "Fonic Prepaid" } } });
  });
});

describe("withImsi", () => {
  const iccid = new IccidDecoder().decode("89441000000000000018");
  if (!iccid.ok) throw new Error("the UK test ICCID must decode");

  it("warns only when both countries are known and differ, and leaves the ICCID's own warnings alone", () => {
    const answer = (imsi: string) => {
      const read = decoder.read(imsi);
      if (!read.ok) throw new Error(imsi);
      return read.answer;
    };
    expect(withImsi(iccid.result, answer("234151234567890")).warnings).toEqual([]);
    expect(withImsi(iccid.result, answer("901031234567890")).warnings).toEqual([]);
    expect(withImsi(iccid.result, answer("262011234567890")).warnings).toEqual([
      { code: "imsi_country_mismatch", message: "the IMSI's country (DE) is not the ICCID's (GB): a multi-IMSI or roaming SIM" },
    ]);
    expect(iccid.result.warnings).toEqual([]);
  });
});
