import * as path from 'node:path';
import { stringify } from 'yaml';
import type { AnalysisBase } from '../analysis/skillAnalysis';
import { type FileSystem } from '../workspace/fileSystem';
import { walkPackageFiles } from '../workspace/packageFiles';
import { UPLOAD_LIMIT_BYTES } from '../platforms/clients';
import type { CompiledFile } from '../analysis/format';

/** The source's frontmatter as read (an empty record when it could not be read). */
export function frontmatterOf(analysis: AnalysisBase): Record<string, unknown> {
  const value = analysis.frontmatter?.value;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};
}

/**
 * A SKILL.md from its frontmatter and body. Values are never folded (each stays on its key's line) and YAML 1.1 words
 * such as `yes` are quoted, as PyYAML-based runtimes need.
 */
export function skillFileText(frontmatter: Record<string, unknown>, body: string): string {
  return `---\n${stringify(frontmatter, { lineWidth: 0, version: '1.1', aliasDuplicateObjects: false })}---\n\n${body.trimEnd()}\n`;
}

/** The source's SKILL.md body as written. */
export function bodyOf(analysis: AnalysisBase): string {
  return analysis.syntax ? analysis.text.slice(analysis.syntax.body.start, analysis.syntax.body.end) : '';
}

/** The title a compiled body starts with: the source body's first `# ` heading, else the name in words. */
export function titleOf(analysis: AnalysisBase): string {
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(bodyOf(analysis));
  if (heading) return heading[1];
  const name = analysis.name ?? path.basename(analysis.dir);
  return name.replace(/[-_]+/g, ' ').replace(/^./, (first) => first.toUpperCase());
}

/**
 * The files of the source package a result keeps, as they are (bytes, not
 * re-encoded), by their path relative to the skill folder. Links are not
 * followed and SKILL.md is left out: the result writes its own.
 */
export function keptFiles(fs: FileSystem, analysis: AnalysisBase, keep: (relative: string) => boolean): CompiledFile[] {
  const paths: string[] = [];
  walkPackageFiles(fs, analysis.dir, UPLOAD_LIMIT_BYTES, (file) =>
    paths.push(path.relative(analysis.dir, file).split(path.sep).join('/')),
  );
  const files: CompiledFile[] = [];
  // In a stable order, whatever order the folder lists its files in.
  for (const relative of paths.sort()) {
    if (relative === 'SKILL.md' || !keep(relative)) continue;
    const bytes = fs.readFile(path.join(analysis.dir, ...relative.split('/')));
    if (bytes) files.push({ path: relative, content: bytes });
  }
  return files;
}

/** The source's texts, for locating findings about the source. */
export function sourceTexts(analysis: AnalysisBase): Map<string, string> {
  return new Map([[analysis.file, analysis.text], ...analysis.sources]);
}
