/** Environment variables set for a test (platform addresses pointing at a stand-in), and put back afterwards. */

/** Sets `variables` and returns the function that restores what was there before (unset stays unset). */
export function setEnv(variables: Record<string, string>): () => void {
  const before = Object.keys(variables).map((name): [string, string | undefined] => [name, process.env[name]]);
  for (const [name, value] of Object.entries(variables)) process.env[name] = value;
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  };
}
