import type { KeyRecord } from "@iccid/core";
import { byId } from "./dom.js";
import { keyLabel } from "./key-label.js";

/**
 * Asks before rolling, and for how long the old key keeps working. Like the revoke dialog, a native modal
 * <dialog> that opens on Cancel, so Enter alone never rolls a key.
 */
export class RollDialog {
  readonly #dialog = byId<HTMLDialogElement>("roll-dialog");
  readonly #text = byId("roll-text");
  readonly #grace = byId<HTMLSelectElement>("roll-grace");

  /** Resolves the grace period in seconds when the user chose "Roll key", undefined on Cancel or Escape. */
  ask(key: KeyRecord): Promise<number | undefined> {
    this.#text.textContent =
      `A new key replaces ${keyLabel(key)}${key.name ? ` (“${key.name}”)` : ""}, with its name, scopes and expiry. ` +
      "Once the old key stops, requests with it are refused with 401 expired_api_key.";
    this.#dialog.returnValue = "";
    this.#dialog.showModal();
    return new Promise((resolve) => {
      this.#dialog.addEventListener("close", () => resolve(this.#dialog.returnValue === "roll" ? Number(this.#grace.value) : undefined), {
        once: true,
      });
    });
  }
}
