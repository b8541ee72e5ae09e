import { CredentialsRefused, DatabaseMissing, StoreUnavailable } from "../errors.js";

// Error codes that mean PostgreSQL cannot be reached or is going away: class 08 (connection exception),
// 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now), 57P05 and 25P03 (the session ended
// for idling) and the socket-level errnos.
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "57P05", "25P03"]);
// What node-postgres says, without a code, when the connection ends under a query or before one, or when
// a query got no answer within its query_timeout.
const LOST = /Connection terminated|not queryable|Connection ended|timeout exceeded when trying to connect|Query read timeout/i;
// A statement PostgreSQL refused or stopped, its transaction rolled back, that may succeed when asked
// again: 57014 (cancelled, statement_timeout among the causes), 55P03 (lock_timeout), 40001 and 40P01
// (serialization failure, deadlock), class 53 (insufficient resources: too many connections, disk full,
// out of memory). Nothing of it was committed.
const TRY_AGAIN = /^(57014|55P03|40001|40P01|53...)$/;

const codeOf = (error: unknown) => String((error as { code?: unknown })?.code ?? "");

/** The connection failed (as opposed to the statement): the transaction's fate is unknown to the client. */
export function isConnectionLoss(error: unknown): boolean {
  const code = codeOf(error);
  return UNAVAILABLE_CODES.has(code) || code.startsWith("08") || LOST.test(String((error as Error)?.message));
}

/**
 * A PostgreSQL error as the store reports it: StoreUnavailable (503) when the database is out of reach,
 * or refused or stopped a statement that may succeed when asked again.
 */
export function storeError(error: unknown): unknown {
  if (error instanceof StoreUnavailable) return error;
  if (isConnectionLoss(error) || TRY_AGAIN.test(codeOf(error))) return new StoreUnavailable({ cause: error });
  return noDatabase(error) ?? error;
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
  return codeOf(error).startsWith("28") ? new CredentialsRefused({ cause: error }) : undefined;
}
