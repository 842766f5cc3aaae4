import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PROFILE_IDS, type ProfileId } from '../platforms/profiles';
import { CONFIG_FILE_NAMES, findConfigFile } from '../config/configFile';
import { discoverSkills } from '../workspace/discover';
import { NodeFileSystem } from '../workspace/fileSystem';
import type { Command } from './commandOptions';
import { WriteRefused, writeAllOrNothing } from './atomicWrite';
import { EXIT_CLEAN, EXIT_USAGE } from './exits';
import { plural, printErr, printOut, shownPath } from './output';
import { clientSkillFolders, PLUGIN_MANIFEST, profileFromLocation } from '../platforms/clients';

/** Where `init` points the baseline: beside the configuration, committed with it. */
export const DEFAULT_BASELINE = '.skillgraph-baseline.json';

/** What `init` found under the folder, for the starter configuration. */
interface Survey {
  skills: number;
  /** Skills per client folder profile (a skill in no client folder counts under undefined). */
  byProfile: Map<ProfileId | undefined, number>;
  /** A Claude Code plugin's manifest is in the folder. */
  plugin: boolean;
  /** Folders of SKILL.md files with no frontmatter (overlays or templates, most likely), relative to the folder. */
  partial: string[];
  /** A configuration above the folder, relative to it: the new one extends it. */
  parent?: string;
}

function survey(fs: NodeFileSystem, dir: string): Survey {
  const found = discoverSkills(fs, [dir], process.cwd()).skills;
  const byProfile = new Map<ProfileId | undefined, number>();
  const partial: string[] = [];
  for (const skill of found) {
    const profile = profileFromLocation(skill.file);
    byProfile.set(profile, (byProfile.get(profile) ?? 0) + 1);
    let head = '';
    try {
      head = readFileSync(skill.file, 'utf8')
        .slice(0, 8)
        .replace(/^\uFEFF/, '');
    } catch {
      // unreadable: the check reports it
    }
    if (!head.startsWith('---')) partial.push(path.relative(dir, path.dirname(skill.file)).split(path.sep).join('/'));
  }
  const above = path.dirname(dir) !== dir ? findConfigFile(fs, path.dirname(dir)) : undefined;
  return {
    skills: found.length,
    byProfile,
    plugin: fs.stat(path.join(dir, PLUGIN_MANIFEST))?.kind === 'file',
    partial,
    ...(above ? { parent: path.relative(dir, above).split(path.sep).join('/') } : {}),
  };
}

/** The `profile` lines: the one profile the skills' folders agree on, else a commented choice. */
function profileLines(found: Survey): string[] {
  const located = ([...found.byProfile].filter(([profile]) => profile !== undefined) as [ProfileId, number][]).sort(
    ([a], [b]) => a.localeCompare(b),
  );
  const elsewhere = found.byProfile.get(undefined) ?? 0;
  if (located.length === 1 && elsewhere === 0)
    return [
      `profile: ${located[0][0]} # ${found.skills === 1 ? 'the skill is' : `all ${found.skills} skills are`} under ${clientSkillFolders(located[0][0])}`,
    ];
  if (located.length === 0 && found.plugin) return ['profile: claude-code # the folder is a Claude Code plugin'];
  if (located.length > 0)
    return [
      `# Each skill is checked for the client whose folder holds it (${located.map(([profile, count]) => `${count} ${profile}`).join(', ')}${elsewhere > 0 ? `, ${elsewhere} elsewhere: agentskills` : ''}).`,
      '# profile: agentskills',
    ];
  return ['# profile: agentskills'];
}

/** The starter configuration: every setting with what it does, the ones that apply set. */
export function starterConfig(found: Survey): string {
  const ignore =
    found.partial.length > 0
      ? [
          '# These SKILL.md files have no frontmatter: build-time overlays or templates, most likely.',
          'ignore:',
          ...found.partial.map((folder) => `  - ${JSON.stringify(`${folder}/**`)}`),
        ]
      : ['ignore: []', '#   - "vendor/**"'];
  return [
    '# Skillgraph: one configuration for the editor, `skillgraph check`, the pre-commit hook and the GitHub Action.',
    '# It applies to the skills in this folder and below; a flag on the command line wins over it.',
    `# Written by \`skillgraph init\` for the ${plural(found.skills, 'skill')} found here.`,
    ...(found.parent ? ['', `extends: ${JSON.stringify(found.parent)}`] : []),
    '',
    '# The client the skills are checked for (agentskills is the open standard):',
    `#   ${PROFILE_IDS.join(', ')}.`,
    '# Without it, a skill under .claude/skills/, .agents/skills/, .codex/skills/, .github/skills/ or .cursor/skills/',
    '# is checked for that client, a MetaSkill for opensquilla, any other for agentskills.',
    ...profileLines(found),
    '',
    "# true: the reference validator's verdict (skills-ref), for skills published to every client.",
    'strict: false',
    '',
    '# A severity per rule code: error, warning, information, hint or off. The codes are in docs/rules/.',
    'rules: {}',
    '#   nested_reference: off',
    '',
    '# Skills not to check (globs, relative to this file): build-time overlays, templates, vendored skills.',
    ...ignore,
    '',
    '# Settings for some skills only (globs, relative to this file); a later entry wins over an earlier one.',
    '# overrides:',
    '#   - files: [".codex/skills/**"]',
    '#     profile: codex',
    '',
    "# Folders of skills MetaSkills may compose, besides each MetaSkill's own siblings.",
    '# catalogs: [shared-skills]',
    '',
    '# The findings accepted for now: `skillgraph check --update-baseline` writes them, and check then reports only',
    '# new ones (the editor too). Commit it with this file.',
    `baseline: ${DEFAULT_BASELINE}`,
    '',
  ].join('\n');
}

export function runInit(command: Extract<Command, { command: 'init' }>): number {
  const fs = new NodeFileSystem();
  const dir = path.resolve(command.dir);
  if (fs.stat(dir)?.kind !== 'directory') {
    printErr(`skillgraph: ${command.dir}: no such folder\n`);
    return EXIT_USAGE;
  }
  const target = path.join(dir, CONFIG_FILE_NAMES[0]);
  const present = CONFIG_FILE_NAMES.map((name) => path.join(dir, name)).filter((file) => fs.stat(file));
  const other = present.find((file) => file !== target);
  if (other || (present.length > 0 && !command.force)) {
    printErr(
      other
        ? `skillgraph: ${shownPath(other)} already configures this folder; nothing was written\n`
        : `skillgraph: ${shownPath(target)} already exists; nothing was written (--force replaces it)\n`,
    );
    return EXIT_USAGE;
  }
  const found = survey(fs, dir);
  const text = starterConfig(found);
  try {
    writeAllOrNothing(
      [
        present.length > 0
          ? { target, content: text, expected: readFileSync(target) }
          : { target, content: text, create: true, mode: 0o644 },
      ],
      shownPath(target),
    );
  } catch (error) {
    if (!(error instanceof WriteRefused)) throw error;
    printErr(`skillgraph: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const shown = shownPath(target);
  const checked = shownPath(dir);
  printOut(
    `Wrote ${shown} for ${plural(found.skills, 'skill')}.\n` +
      `Next: skillgraph check ${checked} --update-baseline   (accept today's findings), commit both files,\n` +
      `and run skillgraph check ${checked} in CI: it fails only on findings that are new.\n`,
  );
  return EXIT_CLEAN;
}
