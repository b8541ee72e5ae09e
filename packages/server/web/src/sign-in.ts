import type { Session } from "@iccid/core";
import { api, ApiProblem, describeProblem } from "./api.js";
import { formatRetryAfter } from "./format.js";
import { byId, showError } from "./dom.js";

/** The sign-in form: POST /api/v1/session, which sets the HttpOnly session cookie. */
export class SignInView {
  readonly #view = byId("sign-in-view");
  readonly #form = byId<HTMLFormElement>("sign-in-form");
  readonly #email = byId<HTMLInputElement>("sign-in-email");
  readonly #password = byId<HTMLInputElement>("sign-in-password");
  readonly #error = byId("sign-in-error");

  constructor(onSignedIn: (session: Session) => void) {
    this.#form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const submit = this.#form.querySelector<HTMLButtonElement>("button[type=submit]")!;
      submit.disabled = true;
      showError(this.#error, null);
      try {
        const session = await api.signIn(this.#email.value.trim(), this.#password.value);
        this.#form.reset();
        onSignedIn(session);
      } catch (error) {
        // Locked out: say when signing in can work again, from the answer's Retry-After.
        const lockedOut = error instanceof ApiProblem && error.status === 429 && error.retryAfterSeconds !== undefined;
        showError(this.#error, lockedOut ? `Too many sign-in attempts. Try again ${formatRetryAfter(error.retryAfterSeconds!)}.` : describeProblem(error));
        // The password is the likely culprit: ready to retype, email kept.
        this.#password.select();
        this.#password.focus();
      } finally {
        submit.disabled = false;
      }
    });
  }

  /**
   * Shows the form; `notice` explains why (signed out, session ended). With `email` (the account whose
   * session just ended), the email is filled in and the password has focus: only it needs typing again.
   */
  show(notice?: string, email?: string): void {
    this.#view.hidden = false;
    showError(this.#error, notice ?? null);
    this.#error.classList.toggle("notice", notice !== undefined);
    if (email) {
      this.#email.value = email;
      this.#password.focus();
    } else {
      this.#email.focus();
    }
  }

  hide(): void {
    this.#view.hidden = true;
    this.#password.value = "";
  }
}
