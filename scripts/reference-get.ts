/** A GET of the reference kube-apiserver (scripts that read data from it): the body, or a throw. */
import { Agent, request } from 'node:https';

/** GETs `url` with the reference's admin `token`, trusting `ca`; `accept` picks the answer's form. */
export function referenceGet(url: string, token: string, ca: string, accept?: string): Promise<string> {
  const agent = new Agent({ ca });
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (accept) headers.accept = accept;
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode} ${text}`));
        else resolve(text);
      });
    });
    req.on('error', reject);
    req.end();
  });
}
