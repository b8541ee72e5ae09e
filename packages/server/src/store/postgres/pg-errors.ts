import { CredentialsRefused, DatabaseMissing, StoreUnavailable } from "../errors.js";

// Error codes that mean PostgreSQL cannot be reached or is going away: class 08 (connection exception),
// 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now) and the socket-level errnos.
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03"]);
// What node-postgres says, without a code, when the connection ends under a query or before one, or when
// a query got no answer within the pool's query_timeout.
const LOST = /Connection terminated|not queryable|Connection ended|timeout exceeded when trying to connect|Query read timeout/i;

/** The connection failed (as opposed to the statement): the transaction's fate is unknown to the client. */
export function isConnectionLoss(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? "");
  return UNAVAILABLE_CODES.has(code) || code.startsWith("08") || LOST.test(String((error as Error)?.message));
}

/** A PostgreSQL error as the store reports it: StoreUnavailable (503) when the database is out of reach. */
export function storeError(error: unknown): unknown {
  if (error instanceof StoreUnavailable) return error;
  return isConnectionLoss(error) ? new StoreUnavailable({ cause: error }) : (noDatabase(error) ?? error);
}

/** A connection refused because the URL names no database of the server's: which one, and how to make it. */
export function noDatabase(error: unknown): DatabaseMissing | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== "3D000") return undefined;
  const name = /database "(.*)" does not exist/.exec(String(message))?.[1];
  return name === undefined ? undefined : new DatabaseMissing(name, { cause: error });
}

/** A connection refused for its user or password (class 28: invalid authorization, invalid password). */
export function refusedCredentials(error: unknown): CredentialsRefused | undefined {
  return String((error as { code?: unknown })?.code ?? "").startsWith("28") ? new CredentialsRefused({ cause: error }) : undefined;
}
