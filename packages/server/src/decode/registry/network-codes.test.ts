import { describe, expect, it } from "vitest";
import { imsiDecoder } from "../imsi-decoder.js";
import { readNetworks } from "./network-codes.js";

const networkName = (imsi: string) => {
  const outcome = imsiDecoder().read(imsi);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.answer.network?.name ?? null;
};

describe("the network-code list", () => {
  it("reads placeholder rows as codes without a name", () => {
    const file = {
      name: "network-codes.csv",
      text:
        "mcc,mnc,iso2,brand,operator,status,source\n" +
        "901,02,,Unassigned,,,test\n901,04,,,Reserved,,test\n001,01,,TEST,Test network,Operational,test\n206,71,BE,,test,Not operational,test\n" +
        "901,03,,Iridium,,Operational,test\n",
    };
    expect(readNetworks(file).map((n) => [n.mcc + n.mnc, n.name])).toEqual([
      ["90102", ""],
      ["90104", ""],
      ["00101", ""],
      ["20671", ""],
      ["90103", "Iridium"],
    ]);
  });

  it("names no placeholder in the package's list, and takes the newest spelling", () => {
    for (const imsi of ["901021234567890", "901041234567890", "901071234567890"]) expect(networkName(imsi), imsi).not.toMatch(/unassigned|reserved|^test/i);
    expect(networkName("313970123456789")).toBe("Tychron");
    // A test MCC whose codes have no name is still known.
    expect(imsiDecoder().read("001011234567890")).toMatchObject({ ok: true, answer: { mnc: "01", network: null } });
  });

  it("has the newest names (One NZ, AT Ghana, Cellfie)", () => {
    expect(networkName("530011234567890")).toBe("One NZ");
    expect(networkName("620061234567890")).toBe("AT Ghana");
    expect(networkName("282041234567890")).toBe("Cellfie");
  });
});
