/** What a password in a URL is shown as. */
export const REDACTED = "***";

// `scheme://user:password@` or `scheme://:password@`: the password runs to the last `@` before the host
// part ends (a password may itself hold `@` or `:` when the operator did not percent-encode them).
const CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@"'<>]*:)([^\s/"'<>]*)@(?=[^\s@/"'<>]*(?:[/\s"'<>?#]|$))/gi;
// libpq and node-postgres also take the password as a query parameter: `…/db?password=…`.
const PASSWORD_PARAMETER = /([?&]password=)[^&\s"'<>#]*/gi;

/**
 * `text` with the password of every URL in it replaced by `***`: a database or Redis URL as the server
 * logs it, prints it or echoes it in an error message. The user name and the rest of the URL stay, so an
 * operator still sees which database or Redis is meant.
 */
export function redactUrls(text: string): string {
  // Most text (every request's log line) holds no URL at all: one scan decides.
  if (!text.includes("://")) return text;
  return text
    .replace(CREDENTIALS, (_match, head: string, password: string) => (password === "" ? `${head}@` : `${head}${REDACTED}@`))
    .replace(PASSWORD_PARAMETER, `$1${REDACTED}`);
}
