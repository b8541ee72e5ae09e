import type { Middleware, Next, ParameterizedContext } from "koa";
import type { AppState } from "../http/state.js";
import type { RouteServices } from "./context.js";
import { guards } from "./guards.js";
import { PATH_PARAM, pathParams, type Route, type RouteContext, type RouteHandler } from "./route.js";

type Chain = (ctx: ParameterizedContext<AppState, RouteContext>, next: Next) => unknown;

/** The endpoints of one path: its chain by method (HEAD answered by GET's). */
interface PathEntry {
  template: string;
  methods: Map<string, Chain>;
}

/** A path with parameters: its pattern, and their names in order. */
interface PatternedEntry extends PathEntry {
  pattern: RegExp;
  names: string[];
}

/**
 * Routes requests to the route table: a path matches exactly (case and trailing slash count), a `:name`
 * segment matches one non-empty segment, handed to the handler decoded in `ctx.params`. Each route's
 * guards and handler are chained once, here. A table of fourteen paths needs no more than a map lookup
 * (and a pattern for the two with a parameter); a general router's matching was a twentieth of a lookup.
 */
export class RouteDispatcher {
  readonly #exact = new Map<string, PathEntry>();
  readonly #patterned: PatternedEntry[] = [];

  constructor(routes: readonly Route[], s: RouteServices) {
    for (const route of routes) {
      this.#methodsOf(route.path).set(route.method.toUpperCase(), chain([...guards(route, s), route.handler(s)]));
    }
  }

  /** The middleware answering every routed request; anything else goes on to `next`. */
  middleware(): Middleware<AppState, RouteContext> {
    return (ctx, next) => {
      const found = this.#find(ctx.path);
      const run = found && (found.entry.methods.get(ctx.method) ?? (ctx.method === "HEAD" ? found.entry.methods.get("GET") : undefined));
      if (!run) return next();
      ctx.params = found.params;
      ctx.state.route = found.entry.template;
      return run(ctx, next);
    };
  }

  /** The methods a path answers, in table order (HEAD before GET), for a 405's Allow; none for an unknown path. */
  allowed(path: string): string[] {
    const methods = [...(this.#find(path)?.entry.methods.keys() ?? [])];
    return methods.flatMap((m) => (m === "GET" ? ["HEAD", "GET"] : [m]));
  }

  /** The declared path a request's path matches (`/api/v1/keys/:id`), whatever its method; none for an unknown path. */
  templateOf(path: string): string | undefined {
    return this.#find(path)?.entry.template;
  }

  #find(path: string): { entry: PathEntry; params: Record<string, string> } | undefined {
    const exact = this.#exact.get(path);
    if (exact) return { entry: exact, params: {} };
    for (const entry of this.#patterned) {
      const match = entry.pattern.exec(path);
      if (match) return { entry, params: Object.fromEntries(entry.names.map((name, i) => [name, decoded(match[i + 1]!)])) };
    }
    return undefined;
  }

  /** The chains by method of a path, made empty on its first route. */
  #methodsOf(template: string): Map<string, Chain> {
    const known = this.#exact.get(template) ?? this.#patterned.find((e) => e.template === template);
    if (known) return known.methods;
    const methods = new Map<string, Chain>();
    const names = pathParams(template);
    if (names.length === 0) this.#exact.set(template, { template, methods });
    else this.#patterned.push({ template, methods, pattern: patternOf(template), names });
    return methods;
  }
}

/** The steps run in order, each going on to the next with `next()`, the last to the chain's own `next`. */
function chain(steps: RouteHandler[]): Chain {
  return steps.reduceRight<Chain>(
    (after, step) => (ctx, next) => step(ctx, () => Promise.resolve(after(ctx, next))),
    (_ctx, next) => next(),
  );
}

/** The pattern of a path with parameters: its text as it is, each `:name` one non-empty segment. */
function patternOf(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(PATH_PARAM, "([^/]+)")}$`);
}

/** A parameter as sent, percent-decoded; as sent when it does not decode. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
