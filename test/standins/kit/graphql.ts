/**
 * A platform's published GraphQL schema as the stand-in's validator (graphql-js): every document received is parsed
 * and validated against the schema, and recorded (all of them in `received`, those that fail in `invalid`, so a test
 * can assert the connector sent none the platform would refuse). The schema comes from the platform's introspection
 * result, as Shopify publishes its Admin API.
 */
import {
  buildClientSchema,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type IntrospectionQuery,
  type OperationDefinitionNode,
  type SourceLocation,
} from 'graphql';

export interface InvalidDocument {
  query: string;
  errors: string[];
}

export interface DocumentProblem {
  message: string;
  locations?: readonly SourceLocation[];
  /** PARSE_ERROR or GRAPHQL_VALIDATION_FAILED, as the platforms' answers name them. */
  code: 'PARSE_ERROR' | 'GRAPHQL_VALIDATION_FAILED';
}

export type Checked =
  | { ok: true; document: DocumentNode; operation: OperationDefinitionNode | undefined; fragments: ReadonlyMap<string, FragmentDefinitionNode> }
  | { ok: false; problems: DocumentProblem[] };

/** The schema of an introspection result (`{ data: { __schema } }`, as published). */
export function schemaFromIntrospection(raw: unknown): GraphQLSchema {
  if (typeof raw !== 'object' || raw === null || !('data' in raw)) throw new Error('the published GraphQL schema has no data');
  return buildClientSchema((raw as { data: IntrospectionQuery }).data);
}

export class GraphQLContract {
  readonly schema: GraphQLSchema;
  /** Every document received. */
  readonly received: string[] = [];
  /** Every document that did not parse or validate, with its errors. */
  readonly invalid: InvalidDocument[] = [];

  constructor(schema: GraphQLSchema) {
    this.schema = schema;
  }

  /** Parses and validates `query`, recording it. */
  check(query: string): Checked {
    this.received.push(query);
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return this.refuse(query, [{ message: String(error), code: 'PARSE_ERROR' }]);
    }
    const errors = validate(this.schema, document);
    if (errors.length > 0)
      return this.refuse(
        query,
        errors.map((e) => ({
          message: e.message,
          ...(e.locations === undefined ? {} : { locations: e.locations }),
          code: 'GRAPHQL_VALIDATION_FAILED',
        })),
      );
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    return { ok: true, document, operation, fragments };
  }

  /** Records a problem found past validation (a search term on a field the schema does not document). */
  flag(query: string, message: string): void {
    this.invalid.push({ query, errors: [message] });
  }

  private refuse(query: string, problems: DocumentProblem[]): Checked {
    this.invalid.push({ query, errors: problems.map((p) => p.message) });
    return { ok: false, problems };
  }
}
