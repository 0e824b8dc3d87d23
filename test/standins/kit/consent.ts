/**
 * The authorization endpoint (RFC 6749 4.1.1 and 4.1.2) as stand-ins play it, on the kit's OAuth server: GET shows the
 * consent page, the request's fields carried in its form (or an error page for a response_type other than code, an
 * unknown client or another redirect_uri); POST is the user's answer, sent back to the app: a code (with the scope,
 * where the platform returns it) for Allow, error=access_denied for Deny, and the state either way.
 */
import { consentPage, errorPage, redirectBack, type OAuthServer } from './oauth.ts';
import type { Answer } from './server.ts';

export const htmlAnswer = (status: number, html: string): Answer => ({ status, body: html, headers: { 'content-type': 'text/html; charset=utf-8' } });

export interface ConsentFlow<S> {
  oauth: OAuthServer<S>;
  /** The endpoint's path (the form posts back to it). */
  path: string;
  title: string;
  /** The heading of the error pages. */
  failedTitle: string;
  /** Who asks for what, in HTML. */
  intro(query: URLSearchParams): string;
  /** Inputs of the user's choices, in HTML (organisations to tick). */
  choices?: string;
  allowLabel: string;
  denyLabel: string;
  /** What Allow grants, read from the posted form; or the error page's title and message. */
  allowed(form: URLSearchParams): { subject: S } | { title: string; problem: string };
  /** The redirect back carries the scope granted. */
  returnsScope: boolean;
  /** What else the redirect back carries (the company connected). */
  returns?(subject: S): Record<string, string>;
  /** The page's request's problems beyond RFC 6749's (a scope the platform needs, a state). */
  requestProblems?(query: URLSearchParams): string[];
}

/** Records a refused request as a violation (the stand-in host's `refuse`). */
type Refuse = (problem: string, answer: Answer) => Answer;
const refused = (refuse: Refuse | undefined, title: string, problem: string): Answer =>
  (refuse ?? ((_problem: string, answer: Answer) => answer))(problem, htmlAnswer(400, errorPage(title, problem)));

const FIELDS = ['client_id', 'redirect_uri', 'scope', 'state'];

function showPage<S>(flow: ConsentFlow<S>, query: URLSearchParams, refuse?: Refuse): Answer {
  const problem =
    query.get('response_type') !== 'code'
      ? 'response_type must be code.'
      : flow.oauth.clientProblem(query.get('client_id'), query.get('redirect_uri'));
  const problems = [...(problem === null ? [] : [problem]), ...(flow.requestProblems?.(query) ?? [])];
  if (problems.length > 0) return refused(refuse, flow.failedTitle, problems.join('; '));
  const page = consentPage({
    title: flow.title,
    intro: flow.intro(query),
    action: flow.path,
    hidden: Object.fromEntries(FIELDS.map((name) => [name, query.get(name) ?? ''])),
    ...(flow.choices === undefined ? {} : { choices: flow.choices }),
    allowLabel: flow.allowLabel,
    denyLabel: flow.denyLabel,
  });
  return htmlAnswer(200, page);
}

function decide<S>(flow: ConsentFlow<S>, form: URLSearchParams, refuse?: Refuse): Answer {
  const clientId = form.get('client_id');
  const redirectUri = form.get('redirect_uri');
  const problem = flow.oauth.clientProblem(clientId, redirectUri);
  if (problem !== null || clientId === null || redirectUri === null) return refused(refuse, flow.failedTitle, problem ?? '');
  const state = form.get('state');
  const scope = form.get('scope');
  const back: Record<string, string> = {};
  if (form.get('decision') !== 'allow') {
    back.error = 'access_denied';
  } else {
    const allowed = flow.allowed(form);
    if (!('subject' in allowed)) return htmlAnswer(400, errorPage(allowed.title, allowed.problem));
    back.code = flow.oauth.code(flow.oauth.grant(clientId, allowed.subject, scope ?? ''), redirectUri);
    if (flow.returnsScope && scope !== null) back.scope = scope;
    Object.assign(back, flow.returns?.(allowed.subject));
  }
  if (state !== null) back.state = state;
  return { status: 302, headers: { location: redirectBack(redirectUri, back) } };
}

/** The answer of the authorization endpoint, or null for a request to another path. */
export async function consentAnswer<S>(
  flow: ConsentFlow<S>,
  method: string,
  url: URL,
  body: () => Promise<string>,
  refuse?: Refuse,
): Promise<Answer | null> {
  if (url.pathname !== flow.path) return null;
  return method === 'POST' ? decide(flow, new URLSearchParams(await body()), refuse) : showPage(flow, url.searchParams, refuse);
}
