import type { KeyRecord } from "@iccid/core";
import { byId } from "./dom.js";
import { keyLabel } from "./key-label.js";

/**
 * Asks before revoking. A native modal <dialog>: it traps focus, closes on Escape, hides the rest of the
 * page from assistive tech, and opens on Cancel (autofocus), so Enter alone never revokes a key.
 */
export class RevokeDialog {
  readonly #dialog = byId<HTMLDialogElement>("revoke-dialog");
  readonly #text = byId("revoke-text");

  /** Resolves true when the user chose "Revoke key", false on Cancel or Escape. */
  confirm(key: KeyRecord): Promise<boolean> {
    this.#text.textContent =
      `Requests with the key ${keyLabel(key)}${key.name ? ` (“${key.name}”)` : ""} will be refused at once ` +
      "with 401 revoked_api_key.";
    this.#dialog.returnValue = "";
    this.#dialog.showModal();
    return new Promise((resolve) => {
      this.#dialog.addEventListener("close", () => resolve(this.#dialog.returnValue === "revoke"), { once: true });
    });
  }
}
