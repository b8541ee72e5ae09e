import type { AuditAction, AuditEvent } from "@iccid/core";
import { api, describeProblem } from "./api.js";
import { byId, h, showError } from "./dom.js";
import { formatInstant, formatInstantShort } from "./format.js";

const ACTION_WORDS: Record<AuditAction, string> = {
  "account.created": "Account created",
  "session.created": "Signed in",
  "session.failed": "Sign-in failed (wrong password)",
  "session.throttled": "Sign-ins held back (too many attempts)",
  "session.ended": "Signed out",
  "sessions.ended": "Signed out everywhere",
  "key.created": "Key created",
  "key.rolled": "Key rolled",
  "key.revoked": "Key revoked",
  "password.changed": "Password changed",
  "plan.changed": "Plan changed",
  "subscription.changed": "Subscription changed",
  "prefixes.imported": "Issuer prefixes imported",
  "prefixes.removed": "Issuer prefixes removed",
  "plans.set": "Plan limits set",
};

function who(event: AuditEvent): string {
  switch (event.actor.type) {
    case "session":
      return "from the account page or the API";
    case "operator":
      return event.actor.id ? `by the operator (${event.actor.id})` : "by the operator";
    case "system":
      return "by the server";
  }
}

/** The Activity card: the account's audit trail, newest first, a page at a time. */
export class ActivityPanel {
  readonly #list = byId<HTMLOListElement>("activity-list");
  readonly #error = byId("activity-error");
  readonly #more = byId<HTMLButtonElement>("activity-more");
  #cursor: string | null = null;

  constructor(private readonly sessionLost: (error: unknown) => boolean) {
    this.#more.addEventListener("click", () => void this.#page(this.#cursor ?? undefined));
  }

  async load(): Promise<void> {
    this.#list.replaceChildren();
    await this.#page(undefined);
  }

  clear(): void {
    this.#list.replaceChildren();
    this.#more.hidden = true;
    showError(this.#error, null);
  }

  async #page(cursor: string | undefined): Promise<void> {
    showError(this.#error, null);
    try {
      const page = await api.audit(cursor);
      if (cursor === undefined && page.events.length === 0) this.#list.append(h("li", { class: "muted" }, "Nothing yet."));
      this.#list.append(...page.events.map((event) => this.#item(event)));
      this.#cursor = page.next_cursor;
      this.#more.hidden = page.next_cursor === null;
    } catch (error) {
      if (this.sessionLost(error)) return;
      showError(this.#error, `Could not load the activity. ${describeProblem(error)}`);
    }
  }

  #item(event: AuditEvent): HTMLLIElement {
    const from = [event.ip && `from ${event.ip}`, event.user_agent].filter(Boolean).join(", ");
    return h(
      "li",
      { "data-action": event.action },
      h("time", { datetime: event.at, title: formatInstant(event.at) }, formatInstantShort(event.at)),
      h(
        "span",
        { class: "what" },
        ACTION_WORDS[event.action] ?? event.action,
        event.target ? h("code", {}, ` ${event.target}`) : null,
        event.attempts ? ` after ${event.attempts} attempts` : null,
      ),
      h("span", { class: "detail" }, [who(event), from].filter(Boolean).join(" · ")),
    );
  }
}
