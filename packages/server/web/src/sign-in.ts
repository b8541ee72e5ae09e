import type { Session } from "@iccid/core";
import { api, describeProblem } from "./api.js";
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
        showError(this.#error, describeProblem(error));
        // The password is the likely culprit: ready to retype, email kept.
        this.#password.select();
        this.#password.focus();
      } finally {
        submit.disabled = false;
      }
    });
  }

  /** Shows the form; `notice` explains why (signed out, session ended). */
  show(notice?: string): void {
    this.#view.hidden = false;
    showError(this.#error, notice ?? null);
    this.#error.classList.toggle("notice", notice !== undefined);
    this.#email.focus();
  }

  hide(): void {
    this.#view.hidden = true;
    this.#password.value = "";
  }
}
