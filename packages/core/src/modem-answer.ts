// How modems and SIM tools hand an ICCID over: an AT response line such as `+CCID: 8944…`, `+QCCID: …`,
// `^ICCID: "…"` or `ICCID: …` (Sierra's AT!ICCID?), or the raw file read `+CRSM: 144,0,"98…"` whose data is
// the nibble-swapped EF_ICCID. A trailing final result `OK` may come along when a whole answer is pasted.

// Read from the compacted text (no whitespace, upper case): a response tag, then a payload without a further
// colon, so that the tag is stripped once and normalising twice changes nothing.
const RESPONSE = /^([+^$#%!*]?[A-Z][A-Z0-9]{0,15}):([^:]*?)(?:OK)?$/;
// +CRSM: sw1,sw2,"data": the status words, then the file's bytes as hex.
const CRSM_PAYLOAD = /^\d{1,3},\d{1,3},"?([0-9A-F]*)"?$/;
const QUOTED = /^"(.*)"$/;

export interface ModemAnswer {
  /** The response tag as written, such as `+QCCID`. */
  tag: string;
  /** The ICCID part of the answer, unquoted. */
  payload: string;
}

/** The ICCID part of a modem's answer line (given without whitespace, upper-cased), or null when it is not one. */
export function readModemAnswer(text: string): ModemAnswer | null {
  const match = RESPONSE.exec(text);
  if (!match) return null;
  const tag = match[1]!;
  let payload = match[2]!;
  const crsm = CRSM_PAYLOAD.exec(payload);
  if (crsm) payload = crsm[1]!;
  const quoted = QUOTED.exec(payload);
  if (quoted) payload = quoted[1]!;
  return { tag, payload };
}
