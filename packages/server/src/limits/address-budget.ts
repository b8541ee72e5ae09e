import ipaddr from "ipaddr.js";

/**
 * What the per-address budgets count an address under: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's network: a host may take any of its 2^64 addresses).
 */
export function addressBudgetKey(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toRFC5952String()}/64`;
}
