/**
 * Validates rendered Kubernetes manifests (helm template's output) against Kubernetes' published OpenAPI schemas, as
 * compiled by the npm package kubernetes-models (and @kubernetes-models/prometheus-operator for ServiceMonitor):
 *   node scripts/chart-validate.ts <tools dir with those packages' node_modules> <rendered.yaml>…
 * scripts/chart-check.sh installs the tools and renders the chart. Checked: every document's kind is known, and its
 * fields' types, required fields, enums and formats. Not checked: unknown (misspelt) fields, which Kubernetes'
 * schemas allow, and anything only a cluster knows (admission, CRDs installed, quotas).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;
interface YamlModule {
  parseAllDocuments(text: string): { toJS(): unknown }[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function modelFor(tools: string, apiVersion: string, kind: string): Promise<ModelClass | null> {
  const modules = path.join(tools, 'node_modules');
  const file = apiVersion.startsWith('monitoring.coreos.com/')
    ? path.join(modules, '@kubernetes-models/prometheus-operator', apiVersion, `${kind}.js`)
    : path.join(modules, 'kubernetes-models', apiVersion, `${kind}.js`);
  try {
    const module = (await import(pathToFileURL(file).href)) as Record<string, ModelClass | undefined>;
    return module[kind] ?? null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const [tools, ...files] = process.argv.slice(2);
  if (tools === undefined || files.length === 0) throw new Error('usage: node scripts/chart-validate.ts <tools dir> <rendered.yaml>…');
  const yaml = (await import(pathToFileURL(path.join(tools, 'node_modules/yaml/dist/index.js')).href)) as YamlModule;
  let problems = 0;
  for (const file of files) {
    const documents = yaml
      .parseAllDocuments(readFileSync(file, 'utf8'))
      .map((document) => document.toJS())
      .filter(isObject);
    for (const manifest of documents) {
      const { apiVersion, kind } = manifest;
      const name = isObject(manifest.metadata) ? String(manifest.metadata.name) : '?';
      const label = `${file}: ${String(kind)} ${name} (${String(apiVersion)})`;
      const Model = typeof apiVersion === 'string' && typeof kind === 'string' ? await modelFor(tools, apiVersion, kind) : null;
      if (Model === null) {
        console.log(`FAIL ${label}: no schema for this apiVersion and kind`);
        problems++;
        continue;
      }
      try {
        new Model(manifest).validate();
        console.log(`ok   ${label}`);
      } catch (error) {
        console.log(`FAIL ${label}: ${error instanceof Error ? error.message : String(error)}`);
        problems++;
      }
    }
  }
  if (problems > 0) {
    console.log(`${problems} manifests do not validate`);
    process.exit(1);
  }
}

await main();
