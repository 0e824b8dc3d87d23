/** GET query?query=SELECT * FROM <Entity> …: one page of an entity, as QBO's QueryResponse. */
import type { SimulatorAnswer, SimulatorBooks } from '../kit.ts';
import { entityNamed, isEntityName, type RenderContext } from './entities.ts';
import { queryError } from './faults.ts';
import { parseQuery, QueryError, runQuery } from './query.ts';
import { ok } from './shapes.ts';

export async function answerQuery(books: SimulatorBooks, text: string, ctx: RenderContext): Promise<SimulatorAnswer> {
  try {
    const query = parseQuery(text, isEntityName);
    const entity = entityNamed(query.entity);
    if (entity === undefined) throw new QueryError(`unknown entity "${query.entity}"`);
    const page = runQuery(query, await entity.all(books, ctx));
    // An empty page is an empty QueryResponse, as QBO answers it.
    const response = page.length === 0 ? {} : { [entity.name]: page, startPosition: query.startPosition, maxResults: page.length };
    return ok({ QueryResponse: response });
  } catch (error) {
    if (error instanceof QueryError) return queryError(error.message, text);
    throw error;
  }
}
