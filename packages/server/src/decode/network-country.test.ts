import { describe, expect, it } from "vitest";
import { ImsiDecoder, imsiDecoder } from "./imsi-decoder.js";
import type { Network } from "./registry/network-codes.js";

const read = (imsi: string) => {
  const outcome = imsiDecoder().read(imsi);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.answer;
};
const net = (mcc: string, mnc: string, iso2: string, listing: string, operational = true): Network => ({
  mcc,
  mnc,
  iso2,
  listing,
  name: `${mcc}-${mnc}`,
  operator: null,
  operational,
  source: "test",
});

describe("a network answers its own country, not its MCC's", () => {
  it("reads the package's list so (Palestine's networks under 425, Norfolk Island's under 505, Diego Garcia's 995)", () => {
    expect(read("425051234567890")).toMatchObject({ mnc: "05", country: { iso2: "PS" }, network: { name: "Jawwal" } });
    expect(read("425061234567890")).toMatchObject({ mnc: "06", country: { iso2: "PS" }, network: { name: "Ooredoo" } });
    expect(read("505101234567890")).toMatchObject({ mnc: "10", country: { iso2: "NF" }, network: { name: "Norfolk Telecom" } });
    expect(read("995011234567890")).toMatchObject({ mnc: "01", country: { iso2: "IO" } });
    // The MCC's own networks, and one listed in several territories' tables, stay the MCC's country's.
    expect(read("425011234567890").country?.iso2).toBe("IL");
    expect(read("505011234567890").country?.iso2).toBe("AU");
    expect(read("310260123456789").country?.iso2).toBe("US");
  });

  it("takes a territory's country only where it has no MCC of its own and the MCC's table does not cover it", () => {
    const decoder = new ImsiDecoder(
      [
        net("425", "01", "IL", "IL"),
        net("425", "02", "IL", "IL"),
        net("425", "05", "IL", "IL"),
        net("425", "05", "PS", "PS"),
        net("206", "01", "BE", "BE"),
        net("270", "01", "LU", "LU"),
        net("270", "99", "LU", "LU"),
        net("270", "99", "BE", "BE"),
        net("340", "01", "GP", "GP/GF"),
        net("340", "01", "GF", "GP/GF"),
        net("340", "01", "GF", "GF"),
        net("340", "02", "GP", "GP/GF"),
        net("340", "02", "GF", "GP/GF"),
      ],
      [],
    );
    const country = (imsi: string) => (decoder.read(imsi) as { answer: { country: { iso2: string } | null } }).answer.country?.iso2;
    expect(country("425051234567890")).toBe("PS");
    expect(country("270991234567890")).toBe("LU"); // Belgium has an MCC of its own
    expect(country("340011234567890")).toBe("GP"); // 340's own table covers French Guiana
  });
});

describe("MNC lengths", () => {
  it("are the operating networks': a stray 3-digit code no longer operating leaves Russia's MNCs two digits", () => {
    expect(read("250371234567890")).toMatchObject({ mnc: "37", country: { iso2: "RU" } });
    expect(read("250571234567890")).toMatchObject({ mnc: "57", country: { iso2: "RU" } });
    expect(read("250981234567890")).toMatchObject({ mnc: "98", country: { iso2: "RU" } });
    expect(read("250811234567890")).toMatchObject({ mnc: "811", network: { name: "Votek Mobile" } });
    const decoder = new ImsiDecoder([net("250", "01", "RU", "RU"), net("250", "99", "RU", "RU"), net("250", "811", "RU", "RU", false)], []);
    expect(decoder.read("250371234567890")).toMatchObject({ ok: true, answer: { mnc: "37", network: null } });
  });

  it("are three digits where the allocation is (Singapore's 525-200 to 525-205)", () => {
    for (const mnc of ["200", "201", "202", "203", "204", "205"]) expect(read(`525${mnc}123456789`).mnc, mnc).toBe(mnc);
    expect(read("525011234567890").mnc).toBe("01");
  });
});
