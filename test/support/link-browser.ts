/** A browser for the hosted link flow over inject: keeps the flow's cookie and submits forms as a person would. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export class LinkBrowser {
  cookie = '';
  private readonly app: FastifyInstance;
  constructor(app: FastifyInstance) {
    this.app = app;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await this.app.inject({ method: 'GET', url, headers: this.cookie === '' ? {} : { cookie: this.cookie } }));
  }

  async post(url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        payload: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie === '' ? {} : { cookie: this.cookie }) },
      }),
    );
  }

  private keep(response: LightMyRequestResponse): LightMyRequestResponse {
    const set = response.headers['set-cookie'];
    const first = Array.isArray(set) ? set[0] : set;
    if (first !== undefined) this.cookie = first.split(';')[0] ?? '';
    return response;
  }
}

/** The CSRF token of a credential form page; a page without one fails the test here, not later. */
export function csrfOf(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (match?.[1] === undefined) throw new Error(`no csrf field in:\n${page}`);
  return match[1];
}
