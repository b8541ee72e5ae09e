// Counts as the command lines (`iccid`, `iccid-server`) and core's notes say them to people: one locale,
// whatever the machine's, so that output and the tests that read it do not move with the user's settings.

// One formatter made once: Number#toLocaleString builds one per call.
const COUNT = new Intl.NumberFormat("en-US");

/** A number with thousands separators: 1,234,567. */
export const formatCount = (n: number): string => COUNT.format(n);

/** A count with its noun in the number it needs: "1 prefix", "2 prefixes", "1,200 requests". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The past of "to be" for a count: "1 row was", "2 rows were". */
export const wasOrWere = (n: number): string => (n === 1 ? "was" : "were");
