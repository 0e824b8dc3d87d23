// `npm start` and `npm run worker`: the service (src/main.ts), once Node is known to be new enough to run it.
import { requireSupportedNode } from './node-version.js';

requireSupportedNode();
await import('../src/main.ts');
