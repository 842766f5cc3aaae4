// The floor `skillgraph check` is compared with: bare `yaml.parse` of the
// YAML in every SKILL.md. Run as a program (`node floor.cjs <dir>`), it
// parses every skill under <dir> in a process of its own, so the bench can
// alternate it with `check` and compare medians, as it does with peers; the
// analysis rows take `yamlRegions` from here too. CommonJS, so Node runs it
// as it is and the TypeScript of the bench imports it (floor.d.cts).
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

/** The YAML of a SKILL.md as the floor parses it: the frontmatter and, for an AIP skill, the procedure block. */
function yamlRegions(text) {
  const regions = [text.slice(4, text.indexOf('\n---\n') + 1)];
  const open = text.indexOf('```yaml\n');
  if (open !== -1) regions.push(text.slice(open + 8, text.lastIndexOf('```')));
  return regions;
}

/** Every folder under `dir` holding a SKILL.md (not looking further inside one). */
function skillDirs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return [];
    const full = path.join(dir, entry.name);
    return existsSync(path.join(full, 'SKILL.md')) ? [full] : skillDirs(full);
  });
}

if (require.main === module) {
  const { parse } = require('yaml');
  const dirs = skillDirs(process.argv[2]);
  for (const dir of dirs)
    for (const region of yamlRegions(readFileSync(path.join(dir, 'SKILL.md'), 'utf8'))) parse(region);
  process.stdout.write(`${JSON.stringify({ skills: dirs.length })}\n`);
}

module.exports = { yamlRegions, skillDirs };
