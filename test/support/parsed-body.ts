/**
 * An answer's body as JSON, parsed once for all the checks of that answer (its contract, then the reference): a list
 * page can be megabytes, and each check would parse it again.
 */
const parsedBodies = new WeakMap<object, { value: unknown } | null>();

/** The body's JSON value, or null when the body is not JSON. */
export function parsedBody(answer: { readonly body: string | null }): { value: unknown } | null {
  let parsed = parsedBodies.get(answer);
  if (parsed !== undefined) return parsed;
  try {
    parsed = { value: JSON.parse(answer.body ?? '') };
  } catch {
    parsed = null;
  }
  parsedBodies.set(answer, parsed);
  return parsed;
}
