/**
 * The contract check's schema validators (test/support/contract-check.ts), compiled once per run instead of once per
 * test file. Each test file runs in its own process, and compiling a large data schema costs tens of milliseconds
 * (hundreds under load); the first process to need a schema compiles it and leaves its Ajv standalone code in the run's
 * directory (test/support/contract-global-setup.ts), named by a hash of the schema's text, and every later process
 * loads that code instead of compiling again. Same Ajv, same options, same generated code: exactly as strict.
 * Without a directory (a config without that global setup, the checker's unit test) every schema is compiled here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import { Ajv, type SchemaObject, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';

// The document's schemas are trusted (no meta-schema validation) and compiled unoptimised: this halves the compile time
// of the large data schemas (about 25 ms each instead of 55 on the shared test machine). `code.source` keeps the
// generated code, which the run's directory shares; it changes nothing in what the validator accepts.
function contractAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    validateSchema: false,
    addUsedSchema: false,
    code: { optimize: false, source: true },
  });
  // CommonJS packages: under ESM their function is the module's `default` property (as in src/http/validation.ts).
  // Its formats are referenced from standalone code as require("ajv-formats/dist/formats").fullFormats.
  ajvFormats.default(ajv);
  // OpenAPI's file contents, whatever their bytes.
  ajv.addFormat('binary', true);
  return ajv;
}

/** Where a validator came from: this process compiled it, or another process of the run did (its standalone code). */
export type ValidatorOrigin = 'compiled' | 'shared';

// The standalone code requires Ajv's runtime helpers and ajv-formats' formats: resolved from here, not from the
// temporary directory the code is kept in.
const requireHere = createRequire(import.meta.url);

function loadStandalone(code: string): ValidateFunction {
  const module = { exports: {} as unknown };
  const factory = runInThisContext(`(function (require, module, exports) {${code}\n})`) as (
    require: NodeJS.Require,
    module: { exports: unknown },
    exports: unknown,
  ) => void;
  factory(requireHere, module, module.exports);
  if (typeof module.exports !== 'function') throw new Error('standalone validator code exports no function');
  return module.exports as ValidateFunction;
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export class ContractValidators {
  private readonly ajv = contractAjv();
  /** By schema object: a document's schema is the same object at every answer, so its text is hashed once. */
  private readonly bySchema = new WeakMap<object, ValidateFunction>();
  /** By the schema's text: every app of a test file builds its own document, with the same schemas. */
  private readonly byHash = new Map<string, ValidateFunction>();
  /** How many validators this process compiled and loaded (the checker's unit test reads them). */
  readonly counts: Record<ValidatorOrigin, number> = { compiled: 0, shared: 0 };
  private readonly dir: () => string | undefined;

  /** `dir`: the run's directory of standalone code, asked for when first needed; undefined to compile everything here. */
  constructor(dir: () => string | undefined) {
    this.dir = dir;
  }

  /** A JSON schema: a document's plain object, or a TypeBox schema (ErrorBodySchema). */
  validatorOf(schema: object): ValidateFunction {
    let validate = this.bySchema.get(schema);
    if (validate !== undefined) return validate;
    const hash = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
    validate = this.byHash.get(hash) ?? this.loadOrCompile(hash, schema);
    this.byHash.set(hash, validate);
    this.bySchema.set(schema, validate);
    return validate;
  }

  private loadOrCompile(hash: string, schema: object): ValidateFunction {
    const dir = this.dir();
    const file = dir === undefined ? undefined : path.join(dir, `${hash}.cjs`);
    const code = file === undefined ? undefined : readIfPresent(file);
    if (code !== undefined) {
      this.counts.shared++;
      return loadStandalone(code);
    }
    const validate = this.ajv.compile(schema as SchemaObject);
    this.counts.compiled++;
    if (file !== undefined) share(file, standaloneCode.default(this.ajv, validate));
    return validate;
  }
}

/** Written under another name and renamed: a process reading at the same moment sees the whole file or none. */
function share(file: string, code: string): void {
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, code);
  renameSync(partial, file);
}
