// Ledgerport runs its TypeScript with Node's type stripping, on by default from Node 22.18. An older Node fails on the
// first .ts file with ERR_UNKNOWN_FILE_EXTENSION, which says nothing of the version: the entries (bin/start.js for
// `npm start`, bin/ledgerport.js) check it first. Plain JavaScript that every Node with ES modules can run.
const NEEDED = [22, 18];

export function supportedNode(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > NEEDED[0] || (major === NEEDED[0] && minor >= NEEDED[1]);
}

/** Exits with a sentence saying what to install when this Node is too old. */
export function requireSupportedNode() {
  const { process } = globalThis;
  if (supportedNode(process.versions.node)) return;
  process.stderr.write(
    `Ledgerport needs Node.js ${NEEDED.join('.')} or newer (24 LTS recommended); this is Node.js ${process.version} (${process.execPath}).\n` +
      'What to do: install Node.js 24 (https://nodejs.org/en/download, or `nvm install 24`), make it the `node` on your PATH (`node --version`), and run the command again.\n',
  );
  process.exit(1);
}
