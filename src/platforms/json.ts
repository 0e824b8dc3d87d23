/** Narrowing of parsed platform JSON, shared by connectors instead of a copy in each. */

/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
