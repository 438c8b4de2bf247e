/**
 * A route's hooks of one kind with `hook` added last; for plugins that attach hooks in onRoute to
 * the routes that need them, so that other requests do not run them at all. `H` is the route's own
 * hook type (hence NoInfer): a callback hook may join a list that holds async ones.
 */
export function withHook<H>(existing: H | H[] | undefined, hook: NoInfer<H>): H[] {
  if (existing === undefined) return [hook];
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}
