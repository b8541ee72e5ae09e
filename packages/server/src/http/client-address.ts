import type { Context } from "koa";
import ipaddr from "ipaddr.js";

// The client's address as the service records and throttles it: one written form per address, whatever
// form a proxy's X-Forwarded-For entry took. Koa picks the entry (ctx.ip: with --trust-proxy, the one
// --proxy-hops from the right); this reads it. An entry that is no address is not taken: the connection's
// own peer, the proxy, is recorded instead.

/** Dotted decimal, a part's leading zeros read as decimal (203.000.113.009 is 203.0.113.9). */
const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** `entry` as an address in its one written form: IPv4 dotted decimal, IPv6 as RFC 5952 writes it (IPv4-mapped as IPv4); undefined when it is none. */
export function normalAddress(entry: string): string | undefined {
  let text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  const dotted = DOTTED.exec(text);
  if (dotted) {
    const parts = dotted.slice(1).map(Number);
    return parts.every((part) => part <= 255) ? parts.join(".") : undefined;
  }
  const v6 = text.replace(/%.*$/, ""); // a zone names an interface of the proxy's, not the client
  if (!ipaddr.IPv6.isValid(v6)) return undefined;
  const address = ipaddr.process(v6);
  return address.kind() === "ipv4" ? address.toString() : (address as ipaddr.IPv6).toRFC5952String();
}

/** The requester's address: Koa's pick, in its one written form, else the connection's peer. */
export function clientAddress(ctx: Pick<Context, "ip" | "req">): string {
  return normalAddress(ctx.ip) ?? normalAddress(ctx.req.socket.remoteAddress ?? "") ?? "unknown";
}
