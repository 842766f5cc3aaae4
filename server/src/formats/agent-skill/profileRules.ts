import { diagnostic, type Diagnostic } from '../../checks/engine/diagnostic';
import type { Profile } from '../../platforms/profiles';
import type { Span } from '../../parse/text/lineIndex';
import type { SkillFileSyntax } from '../../parse/markdown/skillFile';
import { utf8Length } from '../../parse/text/textLike';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import type { FileSystem } from '../../workspace/fileSystem';
import { checkClaudeCodeSkill } from './claudeCodeRules';
import { checkFrontmatter } from './frontmatterRules';
import { checkUploadSize } from './uploadSize';
import { defineRule } from '../../checks/engine/rule';
import { OPENSQUILLA_MAX_BYTES } from '../../platforms/clients';

export const loaderSizeLimit = defineRule({
  code: 'loader_size_limit',
  category: 'frontmatter',
  severity: 'error',
  summary: 'SKILL.md is larger than the targeted client loads.',
  stability: 'stable',
  formats: 'all',
});

export interface SkillFileContext {
  fs: FileSystem;
  file: string;
  dir: string;
  syntax: SkillFileSyntax;
  /** The frontmatter, when it parsed to a mapping. */
  frontmatter?: { yaml: YamlSyntax; value: Record<string, unknown> };
  /** The opening `---` (or the file start), where whole-skill findings go. */
  anchor: Span;
  profile: Profile;
  /** The `metadata` keys the skill's format reads itself (its own maps, not the specification's strings). */
  ownMetadata: readonly string[];
}

/** What every SKILL.md is checked for, whatever its format, as the profile's consumer reads it. */
export function checkSkillFile(context: SkillFileContext): Diagnostic[] {
  const { fs, file, dir, syntax, frontmatter, anchor, profile, ownMetadata } = context;
  const diagnostics: Diagnostic[] = [];
  if (frontmatter)
    diagnostics.push(
      ...checkFrontmatter({
        file,
        dir,
        yaml: frontmatter.yaml,
        value: frontmatter.value,
        anchor,
        profile,
        ownMetadata,
        source: syntax.source,
      }),
    );
  if (profile.id === 'claude-api') diagnostics.push(...checkUploadSize(fs, dir, file, anchor));
  if (profile.id === 'claude-code' && frontmatter)
    diagnostics.push(...checkClaudeCodeSkill({ file, syntax, yaml: frontmatter.yaml, value: frontmatter.value }));
  // Counted without encoding the text: this runs on every keystroke in a MetaSkill.
  if (profile.id === 'opensquilla' && utf8Length(syntax.source) > OPENSQUILLA_MAX_BYTES) {
    diagnostics.push(
      diagnostic(
        loaderSizeLimit,
        file,
        anchor,
        `SKILL.md is over ${OPENSQUILLA_MAX_BYTES.toLocaleString('en')} bytes; OpenSquilla skips larger skill files. Move detail into \`references/\`.`,
      ),
    );
  }
  return diagnostics;
}
