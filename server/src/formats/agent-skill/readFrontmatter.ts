import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import { lineBreaksIn, type Span } from '../../parse/text/lineIndex';
import type { TextLike } from '../../parse/text/textLike';
import type { SkillFileSyntax } from '../../parse/markdown/skillFile';
import type { YamlChunkCache } from '../../parse/yaml/yamlChunkCache';
import { parseYamlRegion, type YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeSpan, repeatedKeys } from '../../parse/yaml/yamlNodes';
import { defineRule } from '../../checks/engine/rule';
import { invalidFrontmatter, yamlProblemRule } from '../../checks/skillFile/container';
import { quoteValueFixes } from '../../checks/edits/yamlFixes';

export const unquotedColon = defineRule({
  code: 'unquoted_colon',
  category: 'file',
  severity: 'error',
  summary: 'An unquoted ": " inside a value breaks the frontmatter, so agents skip the skill.',
  stability: 'stable',
  formats: 'all',
  fixable: 'safe',
  fix: (item, { text }) => quoteValueFixes(text, item),
});

export const duplicateKey = defineRule({
  code: 'duplicate_key',
  category: 'file',
  severity: 'warning',
  summary: 'A key is set twice; the reader keeps only the last value.',
  stability: 'stable',
  formats: 'all',
});

export interface FrontmatterRead {
  yaml?: YamlSyntax;
  /** The frontmatter as a plain object, when it parsed to a mapping. */
  value?: Record<string, unknown>;
  diagnostics: Diagnostic[];
}

/** `key: value` where the plain (unquoted, non-block) value itself holds `: ` or ends with `:`. */
const UNQUOTED_COLON = /^(\s*)([A-Za-z0-9_-]+):[ \t]+(?!["'|>&*!{[])([^#\n]*?(?::[ \t]|:$)[^\n]*)$/;

/**
 * Parses the frontmatter. A YAML error caused by an unquoted `: ` gets its
 * own diagnostic: it is the most common reason agents skip a skill without
 * a word, and the fix (quoting) is mechanical. `pyyaml` reads it as
 * OpenSquilla does (YAML 1.1, a repeated key keeps its last value, which is
 * worth a warning); otherwise a repeated key is an error, as the strict YAML
 * readers of most clients make it, and the value (last key wins) is still
 * returned so the rest of the skill can be checked. With the server's
 * `cache` of this document, it is parsed again only when its text changed.
 */
export function readFrontmatter(
  syntax: SkillFileSyntax,
  file: string,
  pyyaml = false,
  cache?: YamlChunkCache,
): FrontmatterRead {
  const frontmatter = syntax.frontmatter;
  if (!frontmatter) return { diagnostics: [] };
  const yaml = parseYamlRegion(syntax.source, frontmatter.content, cache, pyyaml ? 'pyyaml' : 'frontmatter');
  const diagnostics: Diagnostic[] = [];
  if (yaml.problems.length === 0) {
    for (const repeated of repeatedKeys(yaml)) {
      const line = lineBreaksIn(syntax.source, 0, nodeSpan(yaml, repeated.first)!.start).length + 1;
      diagnostics.push(
        pyyaml
          ? diagnostic(
              duplicateKey,
              file,
              nodeSpan(yaml, repeated.node)!,
              `\`${repeated.key}\` is set again here (first on line ${line}); OpenSquilla reads the frontmatter with PyYAML, which keeps only this last value.`,
            )
          : diagnostic(
              invalidFrontmatter,
              file,
              nodeSpan(yaml, repeated.node)!,
              `\`${repeated.key}\` is set again here (first on line ${line}); strict YAML readers reject the frontmatter and agents skip the skill. Keep one.`,
            ),
      );
    }
  }
  if (yaml.problems.some((problem) => problem.kind === 'syntax')) {
    const colons = findUnquotedColons(syntax.source, frontmatter.content);
    if (colons.length > 0) {
      for (const colon of colons) {
        diagnostics.push(
          diagnostic(
            unquotedColon,
            file,
            colon.colon,
            `The value of \`${colon.key}\` contains ": " without quotes, so YAML reads it as a nested mapping and the frontmatter fails to parse; agents will skip this skill without telling anyone. Quote the value or make it a block scalar (\`${colon.key}: >-\`).`,
            { key: colon.key, value: colon.value, valueStart: colon.valueSpan.start, valueEnd: colon.valueSpan.end },
          ),
        );
      }
      return { yaml, diagnostics };
    }
  }
  for (const problem of yaml.problems) {
    diagnostics.push(
      diagnostic(
        yamlProblemRule(problem, invalidFrontmatter),
        file,
        problem.span,
        `The frontmatter is not valid YAML: ${problem.message}. Agents cannot read it and will skip this skill.`,
      ),
    );
  }
  if (yaml.problems.length > 0) return { yaml, diagnostics };
  if (yaml.value === null || yaml.value === undefined) {
    diagnostics.push(
      diagnostic(
        invalidFrontmatter,
        file,
        frontmatter.open,
        'The frontmatter is empty: it needs at least `name` and `description`.',
      ),
    );
    return { yaml, diagnostics };
  }
  if (typeof yaml.value !== 'object' || Array.isArray(yaml.value)) {
    const span = {
      start: frontmatter.content.start,
      end: Math.max(frontmatter.content.start, frontmatter.content.end - 1),
    };
    diagnostics.push(
      diagnostic(
        invalidFrontmatter,
        file,
        span,
        'The frontmatter must be a YAML mapping of keys to values (`name: …`, `description: …`).',
      ),
    );
    return { yaml, diagnostics };
  }
  return { yaml, value: yaml.value as Record<string, unknown>, diagnostics };
}

interface UnquotedColon {
  key: string;
  value: string;
  colon: Span;
  valueSpan: Span;
}

function findUnquotedColons(text: TextLike, region: Span): UnquotedColon[] {
  const found: UnquotedColon[] = [];
  let lineStart = region.start;
  while (lineStart < region.end) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > region.end) lineEnd = region.end;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const match = UNQUOTED_COLON.exec(line);
    if (match) {
      const valueOffset = line.length - match[3].length;
      const colonIndex = match[3].search(/:([ \t]|$)/);
      const colonStart = lineStart + valueOffset + colonIndex;
      found.push({
        key: match[2],
        value: match[3].trimEnd(),
        colon: { start: colonStart, end: colonStart + 1 },
        valueSpan: { start: lineStart + valueOffset, end: lineStart + valueOffset + match[3].trimEnd().length },
      });
    }
    lineStart = lineEnd + 1;
  }
  return found;
}
