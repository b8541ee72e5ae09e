import { Command } from "commander";
import { counted } from "@iccid/core";
import { DEFAULT_PLAN } from "../../settings.js";
import type { Plan } from "../../store/store.js";
import { UsageError, wholeNumber } from "../input.js";
import { printListing } from "../listing.js";
import { recordServerWideChange } from "../operator-origin.js";
import { withStore } from "../store-access.js";

/** "pro: 1,200 requests / 60 s, 1,000,000 lookups / month" */
export function describePlan(plan: Plan): string {
  return `${plan.name}: ${counted(plan.rate_limit, "request")} / ${plan.window_seconds} s, ${counted(plan.monthly_lookups, "lookup")} / month`;
}

const LIMITS = ["rate_limit", "window_seconds", "monthly_lookups"] as const;

interface PlanOptions {
  rateLimit?: number;
  window?: number;
  monthlyLookups?: number;
}

/** The plan after `plan set`: the options given over what the plan had; a new plan needs all three. */
function planAfter(name: string, existing: Plan | undefined, opts: PlanOptions): Plan {
  const flags = { "--rate-limit": opts.rateLimit, "--window": opts.window, "--monthly-lookups": opts.monthlyLookups };
  const missing = Object.keys(flags).filter((flag) => flags[flag as keyof typeof flags] === undefined);
  if (!existing && missing.length > 0) {
    throw new UsageError(`plan ${name} does not exist yet: a new plan needs --rate-limit, --window and --monthly-lookups (missing ${missing.join(", ")})`);
  }
  if (existing && missing.length === 3) throw new UsageError(`nothing to change: give --rate-limit, --window or --monthly-lookups (now ${describePlan(existing)})`);
  return {
    name,
    rate_limit: opts.rateLimit ?? existing!.rate_limit,
    window_seconds: opts.window ?? existing!.window_seconds,
    monthly_lookups: opts.monthlyLookups ?? existing!.monthly_lookups,
  };
}

export function planCommand(): Command {
  const plan = new Command("plan").description(
    `manage plans (a new database has ${describePlan(DEFAULT_PLAN)}; new accounts get it unless told otherwise)`,
  );
  plan
    .command("set <name>")
    .description("create a plan (all three options) or change some of an existing plan's numbers (the others stay)")
    .option("--rate-limit <n>", "requests per window", wholeNumber("--rate-limit", 1))
    .option("--window <seconds>", "rate-limit window in seconds", wholeNumber("--window", 1))
    .option("--monthly-lookups <n>", "lookups per monthly period", wholeNumber("--monthly-lookups"))
    .action(async (name: string, opts: PlanOptions, command: Command) => {
      const saved = await withStore(command, async (store) => {
        const existing = await store.getPlan(name);
        const next = planAfter(name, existing, opts);
        await store.upsertPlan(next);
        // Every account on the plan has new limits: on the audit trail, server-wide; a set that changed nothing is not.
        if (!existing || LIMITS.some((limit) => existing[limit] !== next[limit])) await recordServerWideChange(store, "plans.set", name);
        return next;
      });
      process.stderr.write(`plan ${describePlan(saved)}\n`);
    });
  plan
    .command("list")
    .description("list plans: name, requests per window, window seconds, monthly lookups")
    .option("--json", "JSON output")
    .action(async (opts: { json?: boolean }, command: Command) => {
      const plans = await withStore(command, (store) => store.listPlans());
      if (opts.json) process.stdout.write(`${JSON.stringify(plans, null, 2)}\n`);
      else printListing(["NAME", "REQUESTS", "WINDOW (S)", "MONTHLY LOOKUPS"], plans.map((p) => [p.name, String(p.rate_limit), String(p.window_seconds), String(p.monthly_lookups)]));
    });
  return plan;
}
