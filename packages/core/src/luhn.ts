// Luhn (ISO/IEC 7812-1 Annex B) over decimal digit strings. Hand-rolled loops: this runs for every ICCID
// of every batch, so no array allocation per call.

/** Sum of the Luhn-weighted digits of `digits`, doubling every second digit counting from the right. */
function luhnSum(digits: string, doubleRightmost: boolean): number {
  let sum = 0;
  let double = doubleRightmost;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum;
}

function assertDigits(value: string, what: string): void {
  if (!/^\d+$/.test(value)) throw new TypeError(`${what} must be a non-empty string of decimal digits`);
}

/** The check digit that makes `body + digit` pass the Luhn check. */
export function luhnCheckDigit(body: string): string {
  assertDigits(body, "body");
  return String((10 - (luhnSum(body, true) % 10)) % 10);
}

/** True when the whole decimal string (its last digit being the check digit) passes the Luhn check. */
export function isLuhnValid(number: string): boolean {
  if (!/^\d{2,}$/.test(number)) return false;
  return passesLuhn(number);
}

/** isLuhnValid for a string the caller knows to hold two or more decimal digits (the grammar's hot path). */
export function passesLuhn(digits: string): boolean {
  return luhnSum(digits, false) % 10 === 0;
}
