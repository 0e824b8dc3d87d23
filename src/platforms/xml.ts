/**
 * XML and SOAP bodies through one maintained parser (fast-xml-parser), for the platforms that speak it (QuickBooks
 * Desktop's qbXML and Web Connector SOAP, NetSuite SOAP, Sage Intacct). Every connector and stand-in reads and writes
 * XML here, so they agree on one shape:
 *
 * - element text stays a string (`parseTagValue: false`): amounts are exact decimals, ids keep their leading zeros;
 * - attributes are keys prefixed `@_`, text beside attributes or children is `#text`;
 * - namespace prefixes are kept as written (`soap:Envelope`) unless `removeNSPrefix` is asked for;
 * - no DTD or external entity is ever resolved (the parser has no such feature), only the five predefined entities and
 *   numeric references are decoded; a document declaring an external entity is refused.
 *
 * Parsed values are `unknown`: callers check them against their contract types, as with JSON.
 */
import XMLBuilder from 'fast-xml-builder';
import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';

export interface XmlReadOptions {
  /** Element paths (dot-separated, from the root, without attribute keys) that are lists even when they occur once. */
  arrays?: ReadonlySet<string>;
  /** Drop namespace prefixes from element and attribute names (`soap:Body` → `Body`). */
  removeNSPrefix?: boolean;
}

export class XmlSyntaxError extends Error {
  readonly line: number;
  constructor(message: string, line: number) {
    super(`XML not well formed at line ${line}: ${message}`);
    this.name = 'XmlSyntaxError';
    this.line = line;
  }
}

function lineOf(error: unknown): number {
  if (typeof error !== 'object' || error === null || !('line' in error)) return 1;
  return typeof error.line === 'number' ? error.line : 1;
}

/** Parses a whole document; throws XmlSyntaxError when it is not well formed (a truncated answer, HTML error page). */
export function parseXml(text: string, options: XmlReadOptions = {}): unknown {
  try {
    SyntaxValidator.validate(text);
  } catch (error) {
    throw new XmlSyntaxError(error instanceof Error ? error.message : String(error), lineOf(error));
  }
  const arrays = options.arrays;
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    removeNSPrefix: options.removeNSPrefix ?? false,
    processEntities: true,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (_name, jpath) => arrays !== undefined && typeof jpath === 'string' && arrays.has(jpath),
  });
  try {
    const parsed: unknown = parser.parse(text);
    return parsed;
  } catch (error) {
    // The parser refuses what it will not do (external entities declared in a DTD): the document is not for us.
    throw new XmlSyntaxError(error instanceof Error ? error.message : String(error), 1);
  }
}

/** Writes `value` (the shape parseXml reads: `@_` attributes, `#text` text) as XML, with the declaration first. */
export function buildXml(value: Record<string, unknown>, declaration = '<?xml version="1.0" encoding="utf-8"?>'): string {
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    suppressEmptyNode: true,
    processEntities: true,
  });
  const body: unknown = builder.build(value);
  if (typeof body !== 'string') throw new TypeError('XML builder returned no text');
  return declaration ? `${declaration}${body}` : body;
}
