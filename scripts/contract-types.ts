/**
 * Emits a connector's TypeScript types from its published contract and a selection: for each type, the contract
 * component it is a view of and the fields the connector reads. The contract gives each field's type (scalars, its
 * string enums as unions, arrays, nested components as the selected type of that component), so a connector says
 * only what it reads ("types from the contract", as supaglue does). The emitted text is then walked by
 * ContractCutter (./contract-cut.ts) like a hand-written types file, which cuts the answer schemas along it.
 *
 * A selection's `fields` is a space-separated list of:
 * - `Name`: the contract's type; a nested component (or array of them) takes the one selected type of that component;
 * - `Name:Type`: this type instead (a selected type where a component has several, a wider `string` where the
 *   connector composes the field itself, or the type of a field the contract lacks and the known differences list);
 * - `Name{A,B}`: an inline object of the contract's nested fields A and B (the same syntax, comma-separated);
 * - `Name!` (before any `:Type` or `{…}`): a required field, where the connector relies on it (an id, a reference's value).
 * Every other field is optional (answers leave out what is empty); `| null` where the contract says nullable.
 */
import type { ContractAdapter, Described } from './contract-cut.ts';

export interface TypeSelection {
  /** The contract component the type is a view of. */
  component: string;
  /** The fields read (see above). */
  fields: string;
  /** A selected type whose fields this one shares. */
  extends?: string;
  /** Which of the platform's contract documents holds the component, when it publishes several. */
  document?: string;
  /** The type's doc comment, when its name does not say it all. */
  doc?: string;
}

interface Field {
  name: string;
  required?: boolean;
  type?: string;
  fields?: Field[];
}

const PRINT_WIDTH = 150; // the repository's prettier printWidth: the text is emitted as prettier would format it

/** Splits `fields` at spaces and commas outside braces. */
export function parseFields(text: string): Field[] {
  const tokens: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at <= text.length; at++) {
    const char = text.charAt(at);
    if (char === '{') depth++;
    else if (char === '}') depth--;
    else if ((at === text.length || /[\s,]/.test(char)) && depth === 0) {
      if (at > start) tokens.push(text.slice(start, at));
      start = at + 1;
    }
  }
  return tokens.map((token) => {
    const brace = token.indexOf('{');
    if (brace > 0) return { ...nameOf(token.slice(0, brace)), fields: parseFields(token.slice(brace + 1, -1)) };
    const [name = token, type] = token.split(':');
    return type === undefined ? nameOf(name) : { ...nameOf(name), type };
  });
}

/** `Name!` → a required field named Name. */
function nameOf(token: string): Field {
  return token.endsWith('!') ? { name: token.slice(0, -1), required: true } : { name: token };
}

export class TypeEmitter<S> {
  readonly problems: string[] = [];
  private readonly aliases = new Map<string, string>();
  private readonly adapter: ContractAdapter<S>;
  private readonly selections: Readonly<Record<string, TypeSelection>>;
  private readonly schemaOf: (selection: TypeSelection) => S;
  private readonly knownDifferences: Readonly<Record<string, string>>;

  /** `schemaOf` finds a selection's component in the contract; `knownDifferences` as ContractCutter takes them. */
  constructor(
    adapter: ContractAdapter<S>,
    selections: Readonly<Record<string, TypeSelection>>,
    schemaOf: (selection: TypeSelection) => S,
    knownDifferences: Readonly<Record<string, string>>,
  ) {
    this.adapter = adapter;
    this.selections = selections;
    this.schemaOf = schemaOf;
    this.knownDifferences = knownDifferences;
  }

  /** The types file's text: `header` as its comment, the selected interfaces, the enum aliases they use, `extra`. */
  render(header: string, extra = ''): string {
    const interfaces = Object.entries(this.selections).map(([name, selection]) => this.interfaceOf(name, selection));
    if (this.problems.length > 0) throw new Error(`the selection does not fit the contract:\n${this.problems.join('\n')}`);
    const aliases = [...this.aliases].map(([name, union]) => aliasText(name, union));
    return [`/** ${header} */`, ...aliases, ...interfaces, extra].filter((part) => part !== '').join('\n\n') + '\n';
  }

  private interfaceOf(name: string, selection: TypeSelection): string {
    const described = this.adapter.describe(this.schemaOf(selection));
    if (described.kind !== 'object') throw new Error(`${selection.component} is not an object in the contract`);
    const heritage = selection.extends === undefined ? '' : ` extends ${selection.extends}`;
    const doc = selection.doc === undefined ? '' : `/** ${selection.doc} */\n`;
    return `${doc}export interface ${name}${heritage} {\n${this.members(described.properties, parseFields(selection.fields), name, '  ')}}`;
  }

  private members(properties: ReadonlyMap<string, S>, fields: Field[], where: string, indent: string): string {
    return fields.map((field) => this.member(properties.get(field.name), field, `${where}.${field.name}`, indent)).join('');
  }

  private member(schema: S | undefined, field: Field, where: string, indent: string): string {
    const reason = this.knownDifferences[where];
    if (schema === undefined) {
      if (reason === undefined || field.type === undefined)
        this.problems.push(`${where} is not in the contract (give its type and list it as a known difference)`);
      return `${indent}/** Not in the contract: ${reason ?? '?'}. */\n${indent}${key(field)}${field.type ?? 'unknown'};\n`;
    }
    const described = this.adapter.describe(schema);
    if (field.fields !== undefined) {
      const object = described.kind === 'array' ? this.adapter.describe(described.items) : described;
      if (object.kind !== 'object') this.problems.push(`${where} is not an object (or array of objects) in the contract`);
      const properties = object.kind === 'object' ? object.properties : new Map<string, S>();
      const literal = `{\n${this.members(properties, field.fields, where, `${indent}  `)}${indent}}${described.kind === 'array' ? '[]' : ''}`;
      return `${indent}${key(field)}${literal}${described.nullable ? ' | null' : ''};\n`;
    }
    const type = field.type ?? this.typeOf(described, where);
    return fitted(`${indent}${key(field)}`, (described.nullable ? `${type} | null` : type).split(' | '), ';', indent) + '\n';
  }

  private typeOf(described: Described<S>, where: string): string {
    if (described.kind === 'array') {
      const items = this.adapter.describe(described.items);
      const type = this.typeOf(items, `${where}[]`);
      return type.includes(' | ') || items.nullable ? `(${items.nullable ? `${type} | null` : type})[]` : `${type}[]`;
    }
    if (described.kind === 'object') {
      const named = Object.keys(this.selections).filter((name) => this.selections[name]?.component === described.component);
      if (named.length === 1 && named[0] !== undefined) return named[0];
      this.problems.push(`${where}: name its type (Name:Type), ${named.length} selected types view ${described.component ?? 'an inline object'}`);
      return 'unknown';
    }
    if (described.values === undefined) return described.type === 'integer' || described.type === 'number' ? 'number' : (described.type ?? 'unknown');
    const union = described.values.map((value) => `'${value}'`).join(' | ');
    if (described.component === undefined) return union;
    this.aliases.set(described.component, union);
    return described.component;
  }
}

/** A member's name and colon: `?` unless the selection says the field is required. */
const key = (field: Field): string => `${field.name}${field.required === true ? '' : '?'}: `;

/** `export type Name = union;` as prettier prints it: on one line, else the union alone on the next, else one member a line. */
function aliasText(name: string, union: string): string {
  const head = `export type ${name} =`;
  if (head.length + union.length + 2 > PRINT_WIDTH && union.length + 3 <= PRINT_WIDTH) return `${head}\n  ${union};`;
  return fitted(`${head} `, union.split(' | '), ';', '');
}

/** `head` + the union + `tail` on one line when it fits, else one member a line, as prettier prints it. */
function fitted(head: string, members: string[], tail: string, indent: string): string {
  const line = `${head}${members.join(' | ')}${tail}`;
  if (line.length <= PRINT_WIDTH || members.length === 1) return line;
  return `${head.trimEnd()}\n${members.map((member) => `${indent}  | ${member}`).join('\n')}${tail}`;
}
