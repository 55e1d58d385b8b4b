import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";

/**
 * `AsyncLocalStorage.snapshot()` and `AsyncLocalStorage.bind()` without the per-call V8 maps that
 * Node 20's versions create, which kept every finished request alive through young-generation
 * collections.
 *
 * Why: on Node 20 both go through `AsyncResource.bind`, which gives each bound function an
 * `asyncResource` accessor wrapped in `util.deprecate` (DEP0172). `deprecate` makes the getter the
 * prototype of its wrapper, so every call creates new maps (hidden classes) in old space that point
 * at closures over the captured resource, and that resource holds the `AsyncLocalStorage` stores of
 * the moment. A scavenge treats old-space objects as roots, so everything those stores reach
 * survives, is copied twice and promoted, until the next full collection frees it. Next.js takes
 * one snapshot per request (its work store's `runInCleanSnapshot`), and its stores reach the whole
 * request: under load ~4-5 MB of finished requests survived each scavenge, and with the 64 MB young
 * generation each scavenge paused every request in flight 11-16 ms (docs/performance.md, change 27).
 * raw-body made the same change for the same reason (stream-utils/raw-body#173), and Node removes
 * the accessor once DEP0172 reaches end of life (nodejs/node#58618).
 *
 * What stays the same: what the documentation promises. `snapshot()` captures the current
 * execution context in one `AsyncResource` and returns a function that runs its argument in it;
 * `bind(fn)` does the same for `fn`, keeping `this`. Both emit the same async_hooks init events as
 * before (one resource per call, of the same type), so tracing tools see no difference. Only the
 * deprecated `asyncResource` property of the returned function is gone.
 */
export function leanSnapshot(): <R, TArgs extends unknown[]>(fn: (...args: TArgs) => R, ...args: TArgs) => R {
  const resource = new AsyncResource("bound-anonymous-fn");
  return (fn, ...args) => resource.runInAsyncScope(fn, undefined, ...args);
}

export function leanBind<Func extends (...args: any[]) => any>(fn: Func): Func {
  const resource = new AsyncResource(fn.name || "bound-anonymous-fn");
  return function bound(this: unknown, ...args: Parameters<Func>) {
    return resource.runInAsyncScope(fn, this, ...args);
  } as Func;
}

/** Installs the two on the process's `AsyncLocalStorage`, if its Node still adds the accessor. */
export function installLeanAsyncContextCapture(): boolean {
  if (!("asyncResource" in AsyncResource.bind(() => {}))) return false;
  AsyncLocalStorage.snapshot = leanSnapshot;
  AsyncLocalStorage.bind = leanBind;
  return true;
}
