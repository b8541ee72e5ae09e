import { APIConnectionError } from "./errors.js";

// "fetch failed" is the most complained-about error message in Node HTTP clients: it names neither the
// host nor the reason. Here the system/undici code picks a sentence a person can act on.

const REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused (is the server running, and on this port?)",
  ENOTFOUND: "the host name does not resolve (check the base URL or DNS)",
  EAI_AGAIN: "the host name could not be resolved right now (DNS is unreachable or slow)",
  ECONNRESET: "the connection was reset (the server restarted, crashed, or a proxy dropped it)",
  EPIPE: "the connection was closed while sending (the server restarted or refused the body)",
  UND_ERR_SOCKET: "the connection closed before a full answer (the server restarted, crashed, or a proxy dropped it)",
  UND_ERR_CLOSED: "the connection closed before a full answer",
  ETIMEDOUT: "connecting timed out (a firewall, or the wrong host)",
  UND_ERR_CONNECT_TIMEOUT: "connecting timed out (a firewall, or the wrong host)",
  EHOSTUNREACH: "the host is unreachable (network or routing problem)",
  ENETUNREACH: "the network is unreachable",
  EPROTO: "the TLS handshake failed (http vs https mismatch in the base URL?)",
  ERR_SSL_WRONG_VERSION_NUMBER: "the TLS handshake failed (is the base URL https on a plain-http server?)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate does not name this host",
};

/** The first error code on an error, its cause, or (happy-eyeballs connects) its aggregated errors. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== "object" || error === null || depth > 3) return undefined;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string") return e.code;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const code = errorCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return errorCode(e.cause, depth + 1);
}

/** Wraps a transport failure so that its message names the host and the likely reason. */
export function connectionFailure(cause: unknown, host: string): APIConnectionError {
  const errno = errorCode(cause);
  const reason =
    (errno && REASONS[errno]) ?? (cause instanceof Error && cause.message ? cause.message : "unknown network error");
  return new APIConnectionError(`could not reach ${host}: ${reason}${errno ? ` [${errno}]` : ""}`, {
    host,
    errno,
    cause,
  });
}
