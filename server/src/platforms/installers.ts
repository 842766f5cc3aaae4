// Where the installers that are piped into a shell come from. A tool's own installer, served over HTTPS from the
// tool's own site, is how its makers tell everyone to install it: a reviewer wants to know, and to pin it, but it is
// not a stranger's code. A shortened address, a bare IP address or plain HTTP hides or forfeits who serves it.

/**
 * Official installers of widely used tools, by host and path prefix: each the address the tool's own install page
 * gives for `curl … | sh` (or `irm … | iex`).
 */
const OFFICIAL_INSTALLERS: readonly string[] = [
  'astral.sh/', // uv, ruff
  'sh.rustup.rs/',
  'get.docker.com/',
  'raw.githubusercontent.com/Homebrew/install/',
  'raw.githubusercontent.com/nvm-sh/nvm/',
  'bun.sh/install',
  'deno.land/install',
  'get.pnpm.io/',
  'install.python-poetry.org/',
  'pyenv.run/',
  'mise.run/',
  'get.volta.sh/',
  'fnm.vercel.app/install',
  'starship.rs/install',
  'get.sdkman.io/',
  'ollama.com/install',
  'claude.ai/install',
  'opencode.ai/install',
  'tailscale.com/install',
  'get.k3s.io/',
  'install.determinate.systems/nix',
  'nixos.org/nix/install',
  'foundry.paradigm.xyz/',
  'sh.vector.dev/',
];

/** Services that turn any address into a short one: what it leads to can change at any time, unseen. */
const SHORTENERS = new Set([
  'bit.ly',
  'tinyurl.com',
  't.co',
  'git.io',
  'is.gd',
  'goo.gl',
  'ow.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'rb.gy',
  'v.gd',
]);

/**
 * Who serves an installer at `url`: `official` (a tool's own installer, or the skill's publisher's own: the site's
 * name is one the skill gives as its publisher), `hidden` (a shortened address, a bare IP address, plain HTTP), else
 * `other`. `publishers` are names in lower case, letters and digits only (`oomol`).
 */
export function installerSource(url: string, publishers: readonly string[]): 'official' | 'hidden' | 'other' {
  const parsed = /^(https?):\/\/([^/:?#\s]+)(?::\d+)?([^?#\s]*)/i.exec(url);
  if (!parsed) return 'other';
  const [, scheme, rawHost, pathname] = parsed;
  const host = rawHost.toLowerCase().replace(/^www\./, '');
  if (scheme.toLowerCase() !== 'https' || SHORTENERS.has(host) || /^[\d.]+$|^\[/.test(host)) return 'hidden';
  const address = `${host}${pathname || '/'}`;
  if (OFFICIAL_INSTALLERS.some((prefix) => address.startsWith(prefix))) return 'official';
  const site = siteName(host);
  return site !== undefined && publishers.includes(site) ? 'official' : 'other';
}

/**
 * The name a host is registered under: `oomol` for `cli.oomol.com`, `example` for `get.example.co.uk` (a country's
 * second level, two or three letters under a two-letter code, is part of the suffix).
 */
function siteName(host: string): string | undefined {
  const labels = host.split('.');
  if (labels.length < 2) return undefined;
  const countrySecondLevel =
    labels.length >= 3 && labels[labels.length - 1].length === 2 && labels[labels.length - 2].length <= 3;
  return labels[labels.length - (countrySecondLevel ? 3 : 2)].replace(/[^a-z0-9]/g, '');
}

/** A publisher's name as `installerSource` compares it: lower case, letters and digits only. */
export function publisherName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
