/**
 * `npm start` (API + worker), `npm run worker` (--role=worker) or --role=api, through bin/start.js, which first
 * checks that Node can run TypeScript: the process is src/server.ts. This entry only turns on Node's module compile cache
 * before anything else loads, so the ~280 TypeScript files and their dependencies
 * skip type stripping and V8's parsing on every start after the first (about
 * 0.4 s less).
 *
 * The cache is where Node keeps it by default, <os tmpdir>/node-compile-cache
 * (NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off): it is
 * derived data, checked against each file's content and the Node version, so it
 * does not belong in DATA_DIR with the data to back up, and the server, the
 * worker, the CLI (bin/ledgerport.js) and every DATA_DIR share one copy. When it
 * cannot be written the process starts as before, only slower.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./server.ts');
