/**
 * A platform's published XML Schema (XSD: QuickBooks Desktop's qbXML, NetSuite's SOAP types) as the stand-in's
 * validator: a request or answer body is parsed and checked against the schema, and its problems come back as text
 * (line and libxml2's message), as the OpenAPI and GraphQL validators give theirs. libxml2 does the work, compiled to
 * WebAssembly (libxml2-wasm: no native build). It loads no external entities or schemas over the network: a schema
 * that imports others is handed over whole.
 */
import { XmlDocument, XmlError, XmlLibError, XsdValidator } from 'libxml2-wasm';

/** libxml2's details with their lines; an error without them (an entity it would not load) as its message. */
const problemsOf = (error: unknown, where: string): string[] => {
  if (error instanceof XmlLibError && error.details.length > 0) return error.details.map((d) => `${where} line ${d.line}: ${d.message.trim()}`);
  if (error instanceof XmlError) return [`${where}: ${error.message}`];
  throw error;
};

export class XmlSchemaContract {
  private readonly schema: XmlDocument;
  private readonly validator: XsdValidator;

  /** The schema's text; throws when it is not a schema libxml2 can compile. */
  constructor(xsd: string) {
    this.schema = XmlDocument.fromString(xsd);
    this.validator = XsdValidator.fromDoc(this.schema);
  }

  /** Problems of an XML body (`where` names it: request, answer): not well-formed, or not valid against the schema. */
  validate(xml: string, where = 'body'): string[] {
    let document: XmlDocument;
    try {
      document = XmlDocument.fromString(xml);
    } catch (error) {
      return problemsOf(error, `${where} (not well-formed)`);
    }
    try {
      this.validator.validate(document);
      return [];
    } catch (error) {
      return problemsOf(error, where);
    } finally {
      document.dispose();
    }
  }

  /** Frees libxml2's memory (WebAssembly's heap is not collected): call when the stand-in closes. */
  dispose(): void {
    this.validator.dispose();
    this.schema.dispose();
  }
}
