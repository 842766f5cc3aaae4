import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { validateAgainstSchema } from '../../../checks/schema/schemaValidation';
import type { Span } from '../../../parse/text/lineIndex';
import { firstNonBlank, type TextLike } from '../../../parse/text/textLike';
import { fenceLanguage, type Fence, type SkillFileSyntax } from '../../../parse/markdown/skillFile';
import type { YamlChunkCache } from '../../../parse/yaml/yamlChunkCache';
import { parseYamlRegion, type YamlSyntax } from '../../../parse/yaml/yamlSyntax';
import { defineRule } from '../../../checks/engine/rule';
import { yamlProblemRule } from '../../../checks/skillFile/container';

export const emptyBody = defineRule({
  code: 'empty_body',
  category: 'aip',
  severity: 'error',
  summary: 'The body holds no procedure.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export const invalidBodyFormat = defineRule({
  code: 'invalid_body_format',
  category: 'aip',
  severity: 'error',
  summary: 'The body is not exactly one fenced YAML block (after the runtime block in 0.5).',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export const invalidBodyYaml = defineRule({
  code: 'invalid_body_yaml',
  category: 'aip',
  severity: 'error',
  summary: 'The procedure block is not valid YAML or not a mapping.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export const schemaViolation = defineRule({
  code: 'schema_violation',
  category: 'aip',
  severity: 'error',
  summary: 'The procedure breaks the AIP JSON Schema.',
  stability: 'stable',
  formats: ['aip-0.3', 'aip-0.5'],
});

export interface ProcedureBlock {
  fence: Fence;
  yaml: YamlSyntax;
  /** The procedure as a plain object, when it parsed to a mapping. */
  value?: Record<string, unknown>;
}

/**
 * The procedure checked against its version's schema. `stepsReused`: the
 * server's chunk cache hands back unchanged steps, so they are checked step
 * by step and the ones found valid before are skipped (validStepByStep).
 */
export function checkProcedureSchema(
  schema: { $id?: string },
  block: ProcedureBlock,
  value: Record<string, unknown>,
  file: string,
  stepsReused: boolean,
): Diagnostic[] {
  return validateAgainstSchema(schema, value, {
    file,
    yaml: block.yaml,
    rootSpan: block.fence.open,
    defaultRule: schemaViolation,
    rootName: 'the procedure',
    stepsReused,
  });
}

/**
 * Finds and parses the one fenced YAML block holding an AIP procedure.
 * `prefixAllowed` says whether text may stand before it (the 0.5 runtime
 * block); anything else in the body is `invalid_body_format`.
 */
export function readProcedureBlock(
  syntax: SkillFileSyntax,
  file: string,
  prefixAllowed: boolean,
  out: Diagnostic[],
  cache?: YamlChunkCache,
): ProcedureBlock | undefined {
  const text = syntax.source;
  const bodyAnchor = anchorOf(syntax);
  if (firstNonBlank(text, syntax.body.start, syntax.body.end) === -1) {
    out.push(
      diagnostic(
        emptyBody,
        file,
        bodyAnchor,
        'The body is empty: an AIP skill holds its procedure in one fenced ```yaml block after the frontmatter.',
      ),
    );
    return undefined;
  }
  const yamlFences = syntax.fences.filter((fence) => ['yaml', 'yml'].includes(fenceLanguage(fence)));
  if (yamlFences.length !== 1) {
    const span = yamlFences[1]?.open ?? bodyAnchor;
    out.push(
      diagnostic(
        invalidBodyFormat,
        file,
        span,
        `The body must hold exactly one fenced \`\`\`yaml block with the procedure; found ${yamlFences.length}.`,
      ),
    );
    if (yamlFences.length === 0) return undefined;
  }
  const fence = yamlFences[0];
  const otherFences = syntax.fences.filter((other) => !yamlFences.includes(other));
  for (const other of otherFences) {
    out.push(
      diagnostic(
        invalidBodyFormat,
        file,
        other.open,
        'Only the procedure block may be fenced in an AIP body; move this code into `scripts/` or `references/`.',
      ),
    );
  }
  const before = firstTextSpan(text, syntax.body.start, fence.open.start);
  const trailing = fence.close ? firstTextSpan(text, fence.close.end, syntax.body.end) : undefined;
  if (!prefixAllowed && before) {
    out.push(
      diagnostic(
        invalidBodyFormat,
        file,
        before,
        'An AIP 0.3 body holds only the fenced procedure; move this text into the procedure (`purpose`, a step description) or into `references/`.',
      ),
    );
  }
  // A trailing fence is already reported above; only prose after the block needs its own diagnostic.
  if (trailing && !otherFences.some((other) => other.open.start === trailing.start)) {
    out.push(
      diagnostic(
        invalidBodyFormat,
        file,
        trailing,
        'Nothing may follow the procedure block; move this text into the procedure or into `references/`.',
      ),
    );
  }

  const yaml = parseYamlRegion(text, fence.content, cache);
  for (const problem of yaml.problems) {
    out.push(
      diagnostic(
        yamlProblemRule(problem, invalidBodyYaml),
        file,
        problem.span,
        `The procedure is not valid YAML: ${problem.message}.`,
      ),
    );
  }
  if (yaml.problems.length > 0) return { fence, yaml };
  if (typeof yaml.value !== 'object' || yaml.value === null || Array.isArray(yaml.value)) {
    out.push(
      diagnostic(
        invalidBodyYaml,
        file,
        fence.open,
        'The procedure block must be a YAML mapping with `purpose`, `trigger_when` and `steps`.',
      ),
    );
    return { fence, yaml };
  }
  return { fence, yaml, value: yaml.value as Record<string, unknown> };
}

function anchorOf(syntax: SkillFileSyntax): Span {
  return syntax.frontmatter?.close ?? syntax.frontmatter?.open ?? { start: 0, end: 0 };
}

/**
 * The first non-blank line between two offsets, from its first non-blank character to its end (before a CR); undefined
 * when all are blank.
 */
function firstTextSpan(text: TextLike, from: number, to: number): Span | undefined {
  const start = firstNonBlank(text, from, to);
  if (start === -1) return undefined;
  const lineEnd = text.indexOf('\n', start);
  const end = Math.min(to, lineEnd === -1 ? text.length : lineEnd);
  return { start, end: text.charCodeAt(end - 1) === 13 ? end - 1 : end };
}
