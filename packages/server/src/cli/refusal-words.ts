import { NotFound, type Refusal } from "../domain/refusals.js";

/**
 * A refusal as the operator reads it: one line in the domain's words, with a pointer to the command that
 * helps where there is one. (API clients get the same refusal as problem details: http/answer-writer.ts.)
 */
export function refusalInWords(refusal: Refusal): string {
  if (refusal instanceof NotFound && refusal.missing === "plan") return `${refusal.message} (see \`iccid-server plan list\`)`;
  if (refusal instanceof NotFound && refusal.missing === "account") return `${refusal.message} (see \`iccid-server account list\`)`;
  if (refusal instanceof NotFound && refusal.missing === "api_key") return `${refusal.message} (see \`iccid-server key list --email …\`)`;
  return refusal.message;
}
