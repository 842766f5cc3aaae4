import * as path from 'node:path';
import type { CompileRequest, Compiled } from '../analysis/format';
import type { AnalysisBase } from '../analysis/skillAnalysis';
import { diagnostic, type Diagnostic } from '../checks/engine/diagnostic';
import { compileTodo } from './compileFindings';
import { frontmatterOf, keptFiles, skillFileText } from './resultPackage';

/** The most an Agent Skills description may hold. */
const DESCRIPTION_LIMIT = 1024;

/** What only the source's format reads of its frontmatter, which a plain skill leaves out. */
export interface OwnFrontmatter {
  /** Top-level keys (a MetaSkill's `kind`, `composition`, …): an ordinary skill would fail the Agent Skills rules. */
  keys?: readonly string[];
  /** `metadata` keys (AIP's `aip`, skill+'s `skillplus-*`). */
  metadata?: (key: string) => boolean;
}

/** A plain skill's frontmatter: the source's, named for its folder, without what only its format reads. */
function plainFrontmatter(analysis: AnalysisBase, name: string, own: OwnFrontmatter): Record<string, unknown> {
  const rest = frontmatterOf(analysis);
  for (const key of own.keys ?? []) delete rest[key];
  const metadata = rest.metadata;
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
    const kept = Object.fromEntries(
      Object.entries(metadata as Record<string, unknown>).filter(
        ([key, value]) => !own.metadata?.(key) && typeof value === 'string',
      ),
    );
    if (Object.keys(kept).length > 0) rest.metadata = kept;
    else delete rest.metadata;
  }
  return { ...rest, name };
}

/**
 * A skill of any format as a plain Agent Skill: a SKILL.md with `body` (a description over the Agent Skills limit, as
 * a MetaSkill may have, is cut at a sentence end; the body already holds it whole, and the cut is reported), and the
 * files of the source it keeps. Its name is its folder's.
 */
export function plainSkill(
  analysis: AnalysisBase,
  request: CompileRequest,
  body: string,
  options: { own: OwnFrontmatter; keep: (relative: string) => boolean },
): Compiled {
  const findings: Diagnostic[] = [];
  const frontmatter = plainFrontmatter(analysis, path.basename(request.outDir), options.own);
  const description = frontmatter.description;
  if (typeof description === 'string' && description.length > DESCRIPTION_LIMIT) {
    const head = description.slice(0, DESCRIPTION_LIMIT);
    const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('。'));
    frontmatter.description =
      sentence > DESCRIPTION_LIMIT / 2 ? head.slice(0, sentence + 1) : `${head.slice(0, DESCRIPTION_LIMIT - 1)}…`;
  }
  const content = skillFileText(frontmatter, body);
  if (frontmatter.description !== description) {
    const at = content.indexOf('\ndescription:') + 1;
    findings.push(
      diagnostic(
        compileTodo,
        path.join(request.outDir, 'SKILL.md'),
        { start: at, end: at + 'description'.length },
        `The source's description is ${String(description).length} characters; an Agent Skill's may have ${DESCRIPTION_LIMIT}, so it was cut at a sentence end (the body keeps it whole). Check that what is left still says when to use the skill.`,
      ),
    );
  }
  return {
    files: [{ path: 'SKILL.md', content }, ...keptFiles(request.fs, analysis, options.keep)],
    findings,
  };
}
