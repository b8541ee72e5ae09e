/** "1 prefix", "2 prefixes", "1,200 requests": a count with its noun in the right number, for operator output. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
