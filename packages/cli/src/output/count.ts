/** A number as people read it: 1,234,567. */
export const count = (n: number): string => n.toLocaleString("en-US");

/** A number with its noun, singular for one: "1 request", "2,000 requests". */
export const counted = (n: number, noun: string): string => `${count(n)} ${n === 1 ? noun : `${noun}s`}`;
