import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import type { Span } from '../../../parse/text/lineIndex';
import type { SkillFileSyntax } from '../../../parse/markdown/skillFile';
import type { YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { nodeSpan, pairOf, scalarString } from '../../../parse/yaml/yamlNodes';
import runtimeBlocks from '../../../../../schemas/aip-runtime-blocks.json';
import { defineRule } from '../../../checks/engine/rule';
import { fixOf, textChange, type Fix } from '../../../checks/engine/fix';

export const missingAipVersion = defineRule({
  code: 'missing_aip_version',
  category: 'aip',
  severity: 'error',
  summary: '`metadata.aip-version` is missing or not a string.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const aipVersionMismatch = defineRule({
  code: 'aip_version_mismatch',
  category: 'aip',
  severity: 'error',
  summary: 'The runtime block names a different AIP version than the frontmatter.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const missingRuntimeBlock = defineRule({
  code: 'missing_runtime_block',
  category: 'aip',
  severity: 'error',
  summary: 'An AIP 0.5 body lacks the runtime block before the procedure.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const runtimeBlockOutdated = defineRule({
  code: 'runtime_block_outdated',
  category: 'aip',
  severity: 'warning',
  summary: 'The runtime block is for an older AIP version than the frontmatter.',
  stability: 'stable',
  formats: ['aip-0.5'],
});

export const runtimeBlockModified = defineRule({
  code: 'runtime_block_modified',
  category: 'aip',
  severity: 'error',
  summary: 'The runtime block is not the text of its AIP version, verbatim.',
  stability: 'stable',
  formats: ['aip-0.5'],
  fixable: 'unsafe',
  fix: restoreRuntimeBlockFix,
});

/** The published runtime block of each AIP version Skillgraph knows, by version. */
const RUNTIME_BLOCKS: Record<string, string> = runtimeBlocks.blocks;

/** The current AIP format version and its runtime block: what compiled packages carry. */
export const CURRENT_AIP_VERSION = runtimeBlocks.current;
export const CURRENT_RUNTIME_BLOCK = RUNTIME_BLOCKS[CURRENT_AIP_VERSION];

/** The published runtime block of an AIP version, if Skillgraph has it. */
export function runtimeBlockText(version: string): string | undefined {
  return RUNTIME_BLOCKS[version];
}

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
        missingAipVersion,
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
        missingRuntimeBlock,
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
          runtimeBlockOutdated,
          file,
          headingSpan,
          `The runtime block is for AIP ${heading[1]}, older than the ${version} the frontmatter names; replace it with the ${version} runtime text.`,
        ),
      );
    } else if (order !== 0) {
      diagnostics.push(
        diagnostic(
          aipVersionMismatch,
          file,
          headingSpan,
          `The runtime block is for AIP ${heading[1]}, but \`metadata.aip-version\` says ${version}.`,
        ),
      );
    }
  }
  const modified = modifiedRuntimeLine(syntax, headingStart, procedureStart, heading[1]);
  if (modified)
    diagnostics.push(
      diagnostic(
        runtimeBlockModified,
        file,
        modified.span,
        `The runtime block must be the AIP ${heading[1]} text, word for word (the aip-spec validator compares it): ${modified.what}. Replace the block with the published text.`,
        { version: heading[1], replace: { start: syntax.body.start, end: procedureStart } },
      ),
    );
  return diagnostics;
}

/**
 * Where a runtime block first departs from its version's published text, if it does: text before the heading, or
 * the first line that differs (white space at the block's ends does not count, as for the aip-spec validator).
 * Undefined for a version whose text Skillgraph does not have.
 */
function modifiedRuntimeLine(
  syntax: SkillFileSyntax,
  headingStart: number,
  procedureStart: number,
  version: string,
): { span: Span; what: string } | undefined {
  const expected = runtimeBlockText(version);
  if (expected === undefined) return undefined;
  const before = syntax.source.slice(syntax.body.start, headingStart);
  if (before.trim() !== '') {
    const start = syntax.body.start + before.search(/\S/);
    const end = syntax.body.start + before.trimEnd().length;
    return { span: { start, end }, what: 'text comes before its heading' };
  }
  const actual = syntax.source.slice(headingStart, procedureStart).trimEnd();
  // CRLF lines read as LF, as Python reads the file (crlf_line_endings is reported on its own).
  if (actual.replace(/\r\n/g, '\n') === expected) return undefined;
  const want = expected.split('\n');
  const have = actual.split('\n');
  let offset = headingStart;
  for (let line = 0; line < have.length; line++) {
    const end = offset + have[line].length;
    if (have[line].replace(/\r$/, '') !== want[line]) {
      const what =
        want[line] === undefined
          ? 'it goes on past the end of the published text'
          : `this line should read "${want[line].length > 80 ? `${want[line].slice(0, 77)}…` : want[line]}"`;
      return { span: { start: offset, end: Math.max(end, offset + 1) }, what };
    }
    offset = end + 1;
  }
  // Every line matches but the text stops early: the rest of the published block is missing.
  const end = headingStart + actual.length;
  return { span: { start: Math.max(headingStart, end - 1), end }, what: 'the end of the published text is missing' };
}

/**
 * The published runtime block of its version in place of an edited one (everything between the frontmatter and the
 * procedure). Unsafe: what the author changed in the block is dropped, and belongs in the procedure if it matters.
 */
function restoreRuntimeBlockFix(item: Diagnostic): Fix[] {
  const version = item.data?.version;
  const replace = item.data?.replace as { start: number; end: number } | undefined;
  const block = typeof version === 'string' ? runtimeBlockText(version) : undefined;
  if (!block || !replace) return [];
  return [
    fixOf(item, `Restore the published AIP ${version} runtime block`, 'unsafe', [
      textChange(item.file, replace.start, replace.end, `\n${block}\n\n`),
    ]),
  ];
}
