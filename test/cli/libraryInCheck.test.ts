import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import reportSchema from '../../schemas/check-report.schema.json';
import { repository, runCli } from '../support/cliRun';

// The library's findings in `check`, as CI sees them: in both skills of a pair, in every format, with the baseline,
// suppressions (inline and configured) and --max-warnings; and `library` in check's formats.

const skill = (name: string, description: string, body = 'Do it.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
const DEPLOY = 'Deploy the web application to staging or production with rollback, health checks and release tagging.';
const SHIP = 'Deploy the web application to production or staging, with health checks, release tagging and rollback.';

interface Reported {
  file: string;
  code: string;
  range: { start: { line: number } };
  related?: { file: string; range: { start: { line: number; character: number } }; message: string }[];
}

const json = (root: string, ...args: string[]) =>
  JSON.parse(runCli(root, 'check', ...args, '--format', 'json').stdout) as { diagnostics: Reported[] };

test('check: two alike descriptions are reported in both skills, each pointing at the other, in every format', () => {
  const root = repository({
    'skills/deploy-app/SKILL.md': skill('deploy-app', DEPLOY),
    'skills/ship-app/SKILL.md': skill('ship-app', SHIP),
    'skills/notes/SKILL.md': skill('notes', 'Writes meeting notes from a transcript. Use after a meeting.'),
  });
  try {
    const text = runCli(root, 'check', 'skills');
    assert.equal(text.status, 0, 'warnings only');
    assert.deepEqual(
      text.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.replace(/: warning: .*(\[\w+\])$/, ' $1')),
      [
        'skills/deploy-app/SKILL.md:3:14 [similar_descriptions]',
        'skills/ship-app/SKILL.md:3:14 [similar_descriptions]',
      ],
    );
    assert.match(
      text.stdout,
      /deploy-app\/SKILL\.md:3:14: warning: This description and that of `ship-app` \(\.\.\/ship-app/,
    );
    const report = JSON.parse(runCli(root, 'check', 'skills', '--format', 'json').stdout) as {
      diagnostics: Reported[];
    };
    const validate = new Ajv2020({ allErrors: true }).compile(reportSchema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    assert.deepEqual(
      report.diagnostics.map((item) => [item.file, item.related]),
      [
        [
          'skills/deploy-app/SKILL.md',
          [
            {
              file: 'skills/ship-app/SKILL.md',
              range: { start: { line: 2, character: 13 }, end: { line: 2, character: 13 + SHIP.length } },
              message: 'The description of `ship-app`',
            },
          ],
        ],
        [
          'skills/ship-app/SKILL.md',
          [
            {
              file: 'skills/deploy-app/SKILL.md',
              range: { start: { line: 2, character: 13 }, end: { line: 2, character: 13 + DEPLOY.length } },
              message: 'The description of `deploy-app`',
            },
          ],
        ],
      ],
    );
    const sarif = JSON.parse(runCli(root, 'check', 'skills', '--format', 'sarif').stdout) as {
      runs: {
        results: { ruleId: string; relatedLocations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    assert.deepEqual(
      sarif.runs[0].results.map((result) => [
        result.ruleId,
        result.relatedLocations.map((place) => place.physicalLocation.artifactLocation.uri),
      ]),
      [
        ['similar_descriptions', ['skills/ship-app/SKILL.md']],
        ['similar_descriptions', ['skills/deploy-app/SKILL.md']],
      ],
    );
    const github = runCli(root, 'check', 'skills', '--format', 'github').stdout;
    assert.match(github, /^::warning file=skills\/deploy-app\/SKILL\.md,line=3,col=14,.*similar_descriptions/m);
    assert.match(github, /^::warning file=skills\/ship-app\/SKILL\.md,line=3,col=14,.*similar_descriptions/m);
    const capped = runCli(root, 'check', 'skills', '--max-warnings', '1');
    assert.equal(capped.status, 1);
    assert.match(capped.stderr, /2 warnings, more than --max-warnings 1/);
    // The library is the skills the run finds: one skill checked alone has no other to collide with.
    assert.equal(runCli(root, 'check', 'skills/ship-app').stdout, '');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('check: a baseline accepts library findings; suppression comments and configured severities silence them', () => {
  const root = repository({
    'skills/deploy-app/SKILL.md': skill('deploy-app', DEPLOY),
    'skills/ship-app/SKILL.md': skill('ship-app', SHIP),
    'skills/release-notes/SKILL.md': skill('release-notes', 'Writes release notes. Use when a release is cut.'),
  });
  try {
    // A baseline written with them, then read: nothing new.
    assert.equal(runCli(root, 'check', '--baseline', 'baseline.json', '--update-baseline').status, 0);
    assert.deepEqual(json(root, '--baseline', 'baseline.json').diagnostics, []);
    // A comment on the line above the description silences it there; one naming a library code that silences
    // nothing is reported, and the analysis does not call the used one unused.
    writeFileSync(
      path.join(root, 'skills/ship-app/SKILL.md'),
      `---\nname: ship-app\n# skillgraph-disable-next-line similar_descriptions -- the team keeps both\ndescription: ${SHIP}\n---\n\nThen run /relase-notes.\n`,
    );
    writeFileSync(
      path.join(root, 'skills/release-notes/SKILL.md'),
      skill(
        'release-notes',
        'Writes release notes. Use when a release is cut.',
        '<!-- skillgraph-disable-next-line shadowed_skill -->\nWrite.',
      ),
    );
    assert.deepEqual(
      json(root).diagnostics.map((item) => [item.file, item.code, item.range.start.line]),
      [
        ['skills/deploy-app/SKILL.md', 'similar_descriptions', 2],
        ['skills/release-notes/SKILL.md', 'unused_suppression', 5],
        ['skills/ship-app/SKILL.md', 'unknown_skill_mention', 6],
      ],
    );
    // The configuration's severities: off for one skill (an override), off everywhere.
    writeFileSync(
      path.join(root, '.skillgraph.yaml'),
      'overrides:\n  - files: ["skills/deploy-app/**"]\n    rules: { similar_descriptions: off }\nrules: { unknown_skill_mention: off }\n',
    );
    assert.deepEqual(
      json(root).diagnostics.map((item) => [item.file, item.code]),
      [['skills/release-notes/SKILL.md', 'unused_suppression']],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('library --format sarif|github and --max-warnings, as check', () => {
  const root = repository({
    'deploy-app/SKILL.md': skill('deploy-app', DEPLOY),
    'ship-app/SKILL.md': skill('ship-app', SHIP),
  });
  try {
    const github = runCli(root, 'library', '.', '--format', 'github');
    assert.equal(github.status, 0);
    assert.equal(github.stdout.match(/^::warning file=.*similar_descriptions/gm)?.length, 2);
    const sarif = JSON.parse(runCli(root, 'library', '.', '--format', 'sarif').stdout) as {
      runs: { results: { ruleId: string }[] }[];
    };
    assert.deepEqual(
      sarif.runs[0].results.map((result) => result.ruleId),
      ['similar_descriptions', 'similar_descriptions'],
    );
    const capped = runCli(root, 'library', '.', '--max-warnings', '0');
    assert.equal(capped.status, 1);
    assert.match(capped.stderr, /2 warnings, more than --max-warnings 0/);
    assert.equal(runCli(root, 'library', '.', '--format', 'json', '--max-warnings', '2').status, 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
