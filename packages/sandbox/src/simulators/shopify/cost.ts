/**
 * Shopify's query cost (shopify.dev/docs/api/usage/limits#cost-calculation), by its documented rules, over any schema
 * holding the types a query selects (the published one, or the simulator's part of it):
 *
 * - requested cost, before the query runs: a scalar or enum field 0, an object field 1, a connection 2 plus `first`
 *   (or `last`) times the cost of one of its nodes, a list field with `first` that many times one item; a mutation 10;
 * - actual cost, after: the same walk over what came back (a connection counts the nodes it returned).
 *
 * Points come out of a leaky bucket per shop: the Standard plan's holds 2,000 and restores 100 a second.
 */
import {
  getNamedType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/** Standard plan numbers (shopify.dev/docs/api/usage/limits): a 2,000-point bucket restoring 100 points a second. */
export const STANDARD_BUCKET: Readonly<{ maximumAvailable: number; restoreRate: number }> = { maximumAvailable: 2000, restoreRate: 100 };

export const MUTATION_COST = 10;

function argNumber(field: FieldNode, name: string, variables: Readonly<Record<string, unknown>>): number | null {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (arg === undefined) return null;
  const value: ValueNode = arg.value;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const given = variables[value.name.value];
    return typeof given === 'number' ? given : null;
  }
  return null;
}

const isConnection = (type: GraphQLNamedType): boolean => type.name.endsWith('Connection');

/** Requested cost of a selection on `type`, by the rules above. */
function selectionCost(
  schema: GraphQLSchema,
  set: SelectionSetNode | undefined,
  type: GraphQLNamedType,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Readonly<Record<string, unknown>>,
): number {
  if (set === undefined) return 0;
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT || selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      const condition = fragment?.typeCondition === undefined ? type : (schema.getType(fragment.typeCondition.name.value) ?? type);
      total += selectionCost(schema, fragment?.selectionSet, condition, fragments, variables);
      continue;
    }
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    const field: GraphQLField<unknown, unknown> | undefined = type.getFields()[selection.name.value];
    if (field === undefined) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) continue;
    const inner = selectionCost(schema, selection.selectionSet, named, fragments, variables);
    if (isConnection(named)) {
      total += 2 + (argNumber(selection, 'first', variables) ?? argNumber(selection, 'last', variables) ?? 0) * inner;
    } else if (selection.name.value === 'nodes' || selection.name.value === 'edges' || selection.name.value === 'pageInfo') {
      // Inside a connection: one node's cost (the connection multiplies it); edges hold a node; pageInfo is free.
      total += selection.name.value === 'nodes' ? 1 + inner : selection.name.value === 'edges' ? inner : 0;
    } else if (selection.name.value === 'node' && set.selections.length > 0 && type.name.endsWith('Edge')) {
      total += 1 + inner;
    } else {
      const listed = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
      const first = listed ? argNumber(selection, 'first', variables) : null;
      total += (first ?? 1) * (1 + inner);
    }
  }
  return total;
}

export function requestedCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Readonly<Record<string, unknown>>,
): number {
  if (operation.operation === OperationTypeNode.MUTATION) return MUTATION_COST;
  const root = schema.getQueryType();
  return root === null || root === undefined ? 0 : selectionCost(schema, operation.selectionSet, root, fragments, variables);
}

/** Actual cost: every object that came back 1, every connection 2 (its nodes counted as objects). */
export function actualCost(data: unknown): number {
  if (Array.isArray(data)) return data.reduce((sum: number, item) => sum + (typeof item === 'object' && item !== null ? 1 : 0) + actualCost(item), 0);
  if (typeof data !== 'object' || data === null) return 0;
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    if (key === 'pageInfo' || typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) total += actualCost(value);
    else if ('nodes' in value || 'edges' in value) total += 2 + actualCost(value);
    else total += (key === 'node' ? 0 : 1) + actualCost(value);
  }
  return total;
}

/** What an answered operation is charged: a mutation its requested cost; a query what came back, never more than requested. */
export function chargedCost(requested: number, operation: OperationDefinitionNode, data: unknown): number {
  return operation.operation === OperationTypeNode.MUTATION ? requested : Math.min(requested, actualCost(data));
}
