// EF_ICCID (3GPP TS 31.102 / 51.011) stores the ICCID as BCD with the two digits of each byte swapped, so a
// raw dump of the file reads `98 44 01 …` for `8944 10…`, and a 19-digit number's filler F lands before its
// last digit (`…F1`). An ICCID itself always starts with 89, so a dump is recognised by its leading 98.

/** True when `hex` (upper case, no separators) reads as a raw EF_ICCID dump: 98…, whole bytes. */
export function isRawEfIccid(hex: string): boolean {
  return hex.length % 2 === 0 && hex.startsWith("98");
}

/** Swaps the two nibbles of every byte: `9844` → `8944`. */
export function swapNibbles(hex: string): string {
  let out = "";
  for (let i = 0; i + 1 < hex.length; i += 2) out += hex[i + 1]! + hex[i]!;
  return out;
}
