/** @module once(): a value made on first use, for the schemas and tables a module would otherwise build at every start (docs/benchmarks.md). */
import * as v from "valibot";

/**
 * A function that makes its value on the first call and returns the same value on every later one. A
 * valibot schema built at a module's top level is built at every server start, whether or not a request
 * ever needs it; `const s = once(() => v.object(…))` builds it when `s()` is first called.
 * @param make - makes the value; called once (again only if it returned undefined or null).
 * @returns the getter.
 */
export function once<T>(make: () => T): () => T {
  let x: T | undefined;
  return () => (x ??= make());
}

/**
 * A valibot schema built on its first parse (`v.lazy` over {@link once}): for the params of methods a tools
 * server rarely gets, which would otherwise be built at every start.
 * @param make - builds the schema; called once.
 * @returns a schema with the same input and output types.
 */
export function lazySchema<S extends v.GenericSchema>(
  make: () => S,
): v.GenericSchema<v.InferInput<S>, v.InferOutput<S>> {
  return v.lazy(once(make));
}
