// The bench's ICCIDs: valid 20-digit numbers from several issuers, made here (check digit included) so the
// bench needs nothing of the builds it measures.
/** The ICCID of the single-lookup rows. */
export const ICCID = "89441000000000000018";
const PREFIXES = ["894410", "894504", "8988310", "891000", "8949"];
/** Where fresh numbers start: above every fixed range the bench asks for. */
let fresh = 1_000_000_000;

/** The Luhn check digit of `body`. */
function checkDigit(body) {
  let sum = 0;
  for (let i = body.length - 1, double = true; i >= 0; i--, double = !double) {
    let digit = body.charCodeAt(i) - 48;
    if (double && (digit *= 2) > 9) digit -= 9;
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** The ICCID numbered `n`: distinct numbers give distinct ICCIDs. */
function iccid(n) {
  const prefix = PREFIXES[n % PREFIXES.length];
  const body = prefix + String(n).padStart(19 - prefix.length, "0");
  return body + checkDigit(body);
}

/** `count` ICCIDs numbered from `start`: the same ones each time. */
export function iccidRange(start, count) {
  return Array.from({ length: count }, (_, i) => iccid(start + i));
}

/** `count` ICCIDs this process never handed out before (a run that sends them asks for nothing kept). */
export function freshIccids(count) {
  const start = fresh;
  fresh += count;
  return iccidRange(start, count);
}
