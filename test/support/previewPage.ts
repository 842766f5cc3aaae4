import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { contextHtml, previewHtml } from '../../client/webview/html';

const DIST = path.join(__dirname, '..', '..', 'dist');

/**
 * Serves the preview page (`/`) and the context page (`/context`) exactly as the extension builds them (same HTML,
 * same Content-Security-Policy, same bundle) on loopback. The one stand-in
 * is `acquireVsCodeApi`, which only VS Code's webview host provides: here it
 * records what the page posts, and `__send` plays the extension's messages.
 */
export async function servePreview(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const address = server.address() as AddressInfo;
    const origin = `http://127.0.0.1:${address.port}`;
    if (request.url === '/' || request.url === '/context') {
      const nonce = randomBytes(16).toString('base64');
      const page =
        request.url === '/'
          ? previewHtml({
              scriptUri: `${origin}/dist/webview.js`,
              styleUri: `${origin}/dist/webview-style.css`,
              cspSource: origin,
              nonce,
            })
          : contextHtml({
              scriptUri: `${origin}/dist/context.js`,
              styleUri: `${origin}/dist/context-style.css`,
              cspSource: origin,
              nonce,
            });
      const fakeHost = `<script nonce="${nonce}">
window.__posted = [];
window.__state = undefined;
window.acquireVsCodeApi = () => ({
  postMessage: (message) => window.__posted.push(message),
  getState: () => window.__state,
  setState: (state) => { window.__state = state; },
});
window.__send = (message) => window.dispatchEvent(new MessageEvent('message', { data: message }));
</script>`;
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(page.replace('<body>', `<body>${fakeHost}`));
      return;
    }
    if (request.url === '/favicon.ico') {
      // A plain browser asks for one; a VS Code webview does not.
      response.writeHead(204);
      response.end();
      return;
    }
    const file = ['webview.js', 'webview-style.css', 'context.js', 'context-style.css'].find(
      (name) => request.url === `/dist/${name}`,
    );
    if (!file) {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/css' });
    response.end(readFileSync(path.join(DIST, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
