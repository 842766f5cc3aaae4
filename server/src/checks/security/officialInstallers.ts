import type { Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';
import { installerSource, publisherName } from '../../platforms/installers';
import { remoteCode } from './riskyExecution';

// A download piped into a shell is `remote_code`, unless it is a tool's official installer (or the skill's own
// publisher's) served over HTTPS: how the tool's makers tell everyone to install it. It still runs whatever the address
// serves when it runs, so a reviewer is told, with the pinned-download advice, as information.

export const officialInstaller = defineRule({
  code: 'official_installer',
  category: 'security',
  severity: 'information',
  summary: "A tool's official installer piped into a shell (`curl https://astral.sh/uv/install.sh | sh`).",
  stability: 'stable',
  formats: 'all',
  security: { severity: '3.0', cwe: ['CWE-494'], review: true },
});

/**
 * The names a skill gives as its publisher, from its frontmatter (`metadata.author`, `author`, `publisher`, `vendor`):
 * an installer served from a site of one of these names is the publisher's own.
 */
export function skillPublishers(frontmatter: Record<string, unknown> | undefined): string[] {
  if (!frontmatter) return [];
  const metadata = frontmatter.metadata;
  const places = [
    frontmatter,
    ...(metadata && typeof metadata === 'object' ? [metadata as Record<string, unknown>] : []),
  ];
  return places.flatMap((place) =>
    ['author', 'publisher', 'vendor']
      .map((key) => place[key])
      .filter((value): value is string => typeof value === 'string')
      .map(publisherName)
      .filter((name) => name.length >= 2),
  );
}

/**
 * `remote_code` findings that pipe an official installer, as `official_installer`; the rest as they are. A finding
 * names the address it downloads in `data.url` when its command has one.
 */
export function withOfficialInstallers(findings: Diagnostic[], publishers: readonly string[]): Diagnostic[] {
  return findings.map((item) => {
    const url = item.data?.url;
    if (item.code !== remoteCode.code || typeof url !== 'string') return item;
    const source = installerSource(url, publishers);
    if (source === 'official')
      return {
        ...item,
        code: officialInstaller.code,
        severity: officialInstaller.severity,
        message: `This pipes the official installer at \`${url}\` into a shell: \`${String(item.data?.command ?? '')}\`. It runs whatever the address serves when it runs, which may change after review; for an install that stays as reviewed, download a release of a pinned version and check its checksum.`,
      };
    if (source === 'hidden')
      return {
        ...item,
        message: `${item.message} The address (\`${url}\`) hides who serves it: a shortened address, a bare IP address or plain HTTP.`,
      };
    return item;
  });
}
