import type { Session } from "@iccid/core";
import { ActivityPanel } from "./activity.js";
import { api, ApiProblem } from "./api.js";
import { announce, byId } from "./dom.js";
import { KeysPanel } from "./keys.js";
import { LookupPanel } from "./lookup-panel.js";
import { SignInView } from "./sign-in.js";
import { UsagePanel } from "./usage.js";

// The account page: one of two views, sign-in or account. The session lives in an HttpOnly cookie the
// page cannot read, so "am I signed in?" is asked of the server (GET /api/v1/session).

const loading = byId("loading");
const accountView = byId("account-view");
const accountTitle = byId("account-title");
const who = byId("who");
const whoEmail = byId("who-email");
const signOutButton = byId<HTMLButtonElement>("sign-out");
const signOutEverywhereButton = byId<HTMLButtonElement>("sign-out-everywhere");
/** The account of the last session the page showed, until the user signs out. */
let signedInEmail: string | undefined;

/** A call failed because the session ended (expired, or signed out in another tab): back to sign-in. */
function sessionLost(error: unknown): boolean {
  if (!(error instanceof ApiProblem && error.signedOut)) return false;
  // Whose session it was: the form keeps the email, so only the password needs typing again.
  showSignIn("Your session has ended. Sign in again.", signedInEmail);
  return true;
}

const signIn = new SignInView((session) => {
  showAccount(session);
  announce(`Signed in as ${session.account.email}.`);
});
const activity = new ActivityPanel(sessionLost);
const keys = new KeysPanel(sessionLost, () => void activity.load());
const usage = new UsagePanel(sessionLost);
// Lookups made on the page are charged: the usage card follows them.
const lookup = new LookupPanel(sessionLost, () => void usage.load());
// The usage card's Refresh also refreshes the keys table ("last used" moves with the same calls) and the
// Activity list.
byId("usage-refresh").addEventListener("click", () => {
  void keys.load();
  void activity.load();
});

function showSignIn(notice?: string, email?: string): void {
  loading.hidden = true;
  accountView.hidden = true;
  who.hidden = true;
  keys.clear();
  usage.clear();
  lookup.clear();
  activity.clear();
  signIn.show(notice, email);
}

function showAccount(session: Session): void {
  loading.hidden = true;
  signedInEmail = session.account.email;
  signIn.hide();
  whoEmail.textContent = session.account.email;
  whoEmail.title = session.account.email; // the full address when the bar truncates it
  who.hidden = false;
  accountView.hidden = false;
  accountTitle.focus();
  void keys.load();
  void usage.load();
  void activity.load();
}

/** Signs out (this session, or every session of the account) and shows the sign-in form saying so. */
async function signOut(button: HTMLButtonElement, call: () => Promise<void>, said: string): Promise<void> {
  button.disabled = true;
  try {
    await call();
  } catch (error) {
    // Already signed out is what the user wanted; anything else still leaves this page signed out.
    if (!(error instanceof ApiProblem && error.signedOut)) console.warn("sign-out failed", error);
  } finally {
    button.disabled = false;
  }
  // Signed out on purpose: the form forgets whose account it was.
  signedInEmail = undefined;
  showSignIn(said);
}

signOutButton.addEventListener("click", () => void signOut(signOutButton, api.signOut, "You have signed out."));
signOutEverywhereButton.addEventListener("click", () =>
  void signOut(signOutEverywhereButton, api.signOutEverywhere, "You have signed out everywhere: every session of this account has ended."),
);

// Coming back to the tab after using a key elsewhere: fresh usage and "last used" without a click.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || accountView.hidden) return;
  void usage.load();
  void keys.load();
  void activity.load();
});

try {
  showAccount(await api.session());
} catch (error) {
  if (error instanceof ApiProblem && error.signedOut) showSignIn();
  else showSignIn(`Could not reach the server. ${error instanceof Error ? error.message : ""}`.trim());
}
