import { diagnostic, type Diagnostic } from '../../checks/diagnostic';
import type { Span } from '../../parse/lineIndex';
import type { SkillFileSyntax } from '../../parse/skillFile';
import { nodeSpan, pairOf, scalarString, type YamlSyntax } from '../../parse/yamlSyntax';

const RUNTIME_HEADING = /^#[ \t]+AIP runtime[ \t]*[\u2014\u2013-]+[ \t]*format[ \t]+(\S+)[ \t]*$/m;

/** Orders AIP versions like `0.4a0` < `0.5a0` < `0.5a1` < `0.5`. */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const match = /^(\d+)\.(\d+)(?:([a-z]+)(\d+))?$/.exec(version);
    if (!match) return undefined;
    // A final release sorts after its alphas and betas.
    return [Number(match[1]), Number(match[2]), match[3] ? match[3].charCodeAt(0) : 1000, Number(match[4] ?? 0)];
  };
  const left = parse(a);
  const right = parse(b);
  if (!left || !right) return a === b ? 0 : Number.NaN;
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return left[i] - right[i];
  return 0;
}

/**
 * Checks `metadata.aip-version` and the runtime block that precedes the
 * procedure: it must be there, and be for the version the frontmatter names.
 */
export function checkRuntimeBlock(
  syntax: SkillFileSyntax,
  file: string,
  frontmatter: YamlSyntax | undefined,
  procedureStart: number,
  anchor: Span,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const versionNode = pairOf(pairOf(frontmatter?.doc.contents, 'metadata')?.value, 'aip-version')?.value;
  const version = scalarString(versionNode);
  const versionSpan = (frontmatter && nodeSpan(frontmatter, versionNode)) ?? anchor;
  if (version === undefined || version.trim() === '') {
    diagnostics.push(
      diagnostic(
        'missing_aip_version',
        file,
        versionSpan,
        '`metadata.aip-version` must name the AIP version as a string, e.g. "0.5a1".',
      ),
    );
  }
  const prefix = syntax.source.slice(syntax.body.start, procedureStart);
  const heading = RUNTIME_HEADING.exec(prefix);
  if (!heading) {
    diagnostics.push(
      diagnostic(
        'missing_runtime_block',
        file,
        anchor,
        'An AIP 0.5 body starts with the runtime block (a heading `# AIP runtime — format <version>` and its text) that tells the agent how to execute the procedure; it is missing.',
      ),
    );
    return diagnostics;
  }
  const headingStart = syntax.body.start + heading.index;
  const headingSpan = { start: headingStart, end: headingStart + heading[0].length };
  if (version) {
    const order = compareVersions(heading[1], version);
    if (order < 0) {
      diagnostics.push(
        diagnostic(
          'runtime_block_outdated',
          file,
          headingSpan,
          `The runtime block is for AIP ${heading[1]}, older than the ${version} the frontmatter names; replace it with the ${version} runtime text.`,
        ),
      );
    } else if (order !== 0) {
      diagnostics.push(
        diagnostic(
          'aip_version_mismatch',
          file,
          headingSpan,
          `The runtime block is for AIP ${heading[1]}, but \`metadata.aip-version\` says ${version}.`,
        ),
      );
    }
  }
  return diagnostics;
}
