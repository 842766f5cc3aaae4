/**
 * The YAML of a SKILL.md as the floor parses it: the frontmatter and, for an
 * AIP skill, the procedure block (the texts `yaml.parse` is timed on).
 */
export function yamlRegions(text: string): string[] {
  const regions = [text.slice(4, text.indexOf('\n---\n') + 1)];
  const open = text.indexOf('```yaml\n');
  if (open !== -1) regions.push(text.slice(open + 8, text.lastIndexOf('```')));
  return regions;
}
