import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from '../../../server/src/checks/engine/diagnostic';
import { checkLibrary } from '../../../server/src/library/libraryChecks';
import { RELATIONSHIP_TYPES, type GraphNode, type PropertyValue } from '../../../server/src/library/libraryGraph';
import { libraryCypher } from '../../../server/src/library/libraryExport';
import { buildLibrary } from '../../../server/src/library/libraryModel';
import { NodeFileSystem } from '../../../server/src/workspace/fileSystem';
import { unmark } from '../../support/fixture';
import { libraryGraphOf } from '../../support/libraryGraphOf';

// The library's checks on small libraries written for each: the finding at its exact place in the skill it is in, and
// a twin that must stay quiet.

interface Written {
  file: string;
  text: string;
  spans: { start: number; end: number }[];
}

/** Writes marked SKILL.md files under a new root; returns each by its path relative to the root. */
function library(files: Record<string, string>): { root: string; written: Record<string, Written> } {
  const root = mkdtempSync(path.join(tmpdir(), 'sg-library-'));
  const written: Record<string, Written> = {};
  for (const [relative, marked] of Object.entries(files)) {
    const { text, spans } = unmark(marked);
    const file = path.join(root, ...relative.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (relative.endsWith('SKILL.md')) written[relative] = { file, text, spans };
  }
  return { root, written };
}

function findings(root: string, written: Record<string, Written>, home = path.join(root, 'home')): Diagnostic[] {
  const files = Object.values(written).map((item) => item.file);
  return checkLibrary(buildLibrary(new NodeFileSystem(), files, home));
}

/** Each finding of `code` as [code, skill, text at its span]; each marked span of `expected` skills likewise. */
function expectIn(found: Diagnostic[], code: string, written: Record<string, Written>) {
  const byFile = new Map(Object.entries(written).map(([relative, item]) => [item.file, { relative, item }]));
  const actual = found
    .filter((item) => item.code === code)
    .map((item) => {
      const { relative, item: skill } = byFile.get(item.file)!;
      return [item.code, relative, skill.text.slice(item.span.start, item.span.end)];
    });
  const expected = Object.entries(written).flatMap(([relative, item]) =>
    item.spans.map((span) => [code, relative, item.text.slice(span.start, span.end)]),
  );
  assert.deepEqual(actual, expected);
  return found.filter((item) => item.code === code);
}

const skill = (name: string, description: string, body = '') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

/** The library of the skills written under `root`. */
const builtFrom = (written: Record<string, { file: string }>, root: string) =>
  buildLibrary(
    new NodeFileSystem(),
    Object.values(written).map((item) => item.file),
    root,
  );
/** Its edges as [from, to, kind], the files relative to `root`. */
const edgesOf = (built: ReturnType<typeof buildLibrary>, root: string) =>
  built.edges.map((edge) => [path.relative(root, edge.from), path.relative(root, edge.to), edge.kind]);

test('unknown_skill_mention: Skill(), /name and $name a letter off a skill; commands, paths, code and far names are not', () => {
  const { root, written } = library({
    'release-notes/SKILL.md': skill('release-notes', 'Writes release notes. Use when a release is cut.'),
    'release-digest/SKILL.md': `---\nname: release-digest\ndescription: Sums up releases. Use weekly.\nallowed-tools: Read Skill(«relase-notes»)\n---\n\nWhen done, run /«relase-notes», or in Codex $«release-note».\n`,
    'quiet/SKILL.md': skill(
      'quiet',
      'Tidies things. Use when asked.',
      'Run /clear first, keep /tmp/x and https://example.dev/release-notez, use $HOME, /deploy-everything, /acme:relase-notes.\n\n```bash\ncd /relase-notes\n```\n',
    ),
  });
  const all = findings(root, written);
  const found = expectIn(all, 'unknown_skill_mention', written);
  assert.match(found[0].message, /did you mean `release-notes`\?/);
});

test('shadowed_skill: only skills one client reads together collide; drifted copies and a pack, its copies and its archive do not', () => {
  const { root, written } = library({
    // One collection: two categories hold skills of one name.
    'repo/skills/angular/architecture/SKILL.md': `---\nname: «architecture»\ndescription: Angular architecture. Use for Angular apps.\n---\n`,
    'repo/skills/golang/architecture/SKILL.md': `---\nname: «architecture»\ndescription: Go architecture. Use for Go services.\n---\n`,
    // A pack, the repository's own copy (drifted by a clause) and an archived first draft: no client reads two.
    'repo/skills-pack/skills/pending-tasks/SKILL.md': skill(
      'pending-tasks',
      'Create or repair specs/pending-tasks.md from the build backlogs when the durable task queue is missing or stale.',
    ),
    'repo/.agents/skills/pending-tasks/SKILL.md': skill(
      'pending-tasks',
      'Create or repair specs/pending-tasks.md or specs/task-queue/ from the build backlogs when the durable task queue is missing or stale.',
    ),
    'repo/specs/archive/inbox/skills/pending-tasks/SKILL.md': skill(
      'pending-tasks',
      'First draft: turn backlog files into a queue of tasks.',
    ),
  });
  expectIn(findings(root, written), 'shadowed_skill', written);
});

test('shadowed_skill: a personal Claude Code skill hides the project one; two others of one name collide, each told of the other; a plugin is namespaced', () => {
  const { root, written } = library({
    'home/.claude/skills/deploy/SKILL.md': `---\nname: «deploy»\ndescription: Deploys my way. Use when deploying.\n---\n\nDeploy.\n`,
    'repo/.claude/skills/deploy/SKILL.md': `---\nname: «deploy»\ndescription: Deploys the team's way. Use when deploying.\n---\n\nDeploy.\n`,
    'lib/a/review/SKILL.md': `---\nname: «review»\ndescription: Reviews code. Use for a pull request.\n---\n\nReview.\n`,
    'lib/b/review/SKILL.md': `---\nname: «review»\ndescription: Reviews prose. Use for a document.\n---\n\nReview.\n`,
    'plugins/acme/.claude-plugin/plugin.json': '{"name": "acme"}',
    'plugins/acme/skills/deploy/SKILL.md': skill('deploy', 'Deploys the plugin way. Use when deploying.'),
  });
  const all = findings(root, written);
  const found = expectIn(all, 'shadowed_skill', written);
  assert.match(found[0].message, /^Claude Code loads this personal skill instead of the project's skill `deploy` \(/);
  assert.match(found[1].message, /Claude Code loads the personal skill `deploy`/);
  assert.match(found[2].message, /Another skill of the library is named `review` \(\.\.\/\.\.\/b\/review\/SKILL\.md\)/);
  assert.match(found[3].message, /Another skill of the library is named `review` \(\.\.\/\.\.\/a\/review\/SKILL\.md\)/);
  // Each points at the other, at its name.
  assert.deepEqual(found[2].related, [
    {
      file: written['lib/b/review/SKILL.md'].file,
      range: { start: { line: 1, character: 6 }, end: { line: 1, character: 12 } },
      message: 'The other skill named `review`',
    },
  ]);
  assert.equal(found[3].related![0].file, written['lib/a/review/SKILL.md'].file);
});

test('similar_descriptions: two descriptions of the same words, reported at each, pointing at the other; a pair that names each other and distinct ones are quiet', () => {
  const alike = {
    'deploy-app/SKILL.md': `---\nname: deploy-app\ndescription: «Deploy the web application to staging or production with rollback, health checks and release tagging.»\n---\n\nDeploy it.\n`,
    'ship-app/SKILL.md': `---\nname: ship-app\ndescription: «Deploy the web application to production or staging, with health checks, release tagging and rollback.»\n---\n\nShip it.\n`,
    'write-notes/SKILL.md': skill('write-notes', 'Write meeting notes from a transcript, with decisions and owners.'),
  };
  const { root, written } = library(alike);
  const all = findings(root, written);
  const [deploy, ship] = expectIn(all, 'similar_descriptions', written);
  assert.match(
    deploy.message,
    /that of `ship-app` \(\.\.\/ship-app\/SKILL\.md\) share most of their distinctive words \(/,
  );
  assert.match(
    ship.message,
    /that of `deploy-app` \(\.\.\/deploy-app\/SKILL\.md\) share most of their distinctive words \(/,
  );
  assert.deepEqual(ship.related, [
    {
      file: written['deploy-app/SKILL.md'].file,
      range: { start: { line: 2, character: 13 }, end: { line: 2, character: 114 } },
      message: 'The description of `deploy-app`',
    },
  ]);
  assert.equal(deploy.related![0].file, written['ship-app/SKILL.md'].file);
  const named = library({
    ...alike,
    'ship-app/SKILL.md': skill(
      'ship-app',
      'Deploy the web application to production or staging, with health checks, release tagging and rollback.',
      'For a first deployment use /deploy-app.',
    ),
  });
  assert.deepEqual(
    findings(named.root, named.written).filter((item) => item.code === 'similar_descriptions'),
    [],
  );
});

test('similar_descriptions: a family written from one template is told apart by the name each description gives first', () => {
  const api = (name: string, said: string, verbs = 'reading, creating, and updating data') =>
    skill(
      name,
      `${said} (${said.toLowerCase().replace(/\s+/g, '')}.example). Use this skill for ANY ${said} request \u2014 ${verbs}. Whenever a task involves ${said}, use this skill instead of calling the API directly.`,
    );
  const entity = (name: string, kind: string) =>
    skill(
      name,
      `Add live notification streams to Akka Java SDK ${kind} components using NotificationPublisher and NotificationStream. Use when exposing entity updates to subscribers.`,
    );
  const family = library({
    'oo-aws-sts/SKILL.md': api('oo-aws-sts', 'AWS STS'),
    'oo-aws-s3/SKILL.md': api('oo-aws-s3', 'AWS S3'),
    'oo-ably/SKILL.md': api('oo-ably', 'Ably'),
    'oo-ably-control/SKILL.md': api('oo-ably-control', 'Ably Control'),
    'oo-twochat/SKILL.md': api('oo-twochat', '2Chat'),
    'oo-crisp/SKILL.md': api('oo-crisp', 'Crisp'),
    'akka-kve-notifications/SKILL.md': entity('akka-kve-notifications', 'KeyValueEntity'),
    'akka-ese-notifications/SKILL.md': entity('akka-ese-notifications', 'EventSourcedEntity'),
  });
  assert.deepEqual(
    findings(family.root, family.written).filter((item) => item.code === 'similar_descriptions'),
    [],
  );
  // The same text under two names, or a shorter name whose description names the longer one's part, is not told apart.
  const same =
    'Fetch, preview, test, and merge GitHub PRs locally. Use when the user wants to evaluate a PR before merge.';
  const confusable = library({
    'github-pr/SKILL.md': `---\nname: github-pr\ndescription: «${same}»\n---\n`,
    'gh-pr-local/SKILL.md': `---\nname: gh-pr-local\ndescription: «${same}»\n---\n`,
    'oo-shopify/SKILL.md': `---\nname: oo-shopify\ndescription: «Shopify REST Admin (shopify.com). Use this skill for ANY Shopify REST Admin request \u2014 searching and reading data. Whenever a task involves Shopify REST Admin, use this skill instead of calling the API directly.»\n---\n`,
    'oo-shopify-admin/SKILL.md': `---\nname: oo-shopify-admin\ndescription: «Shopify Admin (shopify.com). Use this skill for ANY Shopify Admin request \u2014 reading, creating, and updating data. Whenever a task involves Shopify Admin, use this skill instead of calling the API directly.»\n---\n`,
  });
  expectIn(findings(confusable.root, confusable.written), 'similar_descriptions', confusable.written);
});

test('similar_descriptions: several alike, once at each with the closest named and every other as related; copies of one skill in each client folder are one', () => {
  const same = 'A standard Spec-Kitty workflow routine for planning, tasks, review and merge of the feature.';
  const { root, written } = library({
    'kitty/plan/SKILL.md': `---\nname: plan\ndescription: «${same}»\n---\n\nPlan.\n`,
    'kitty/review/SKILL.md': `---\nname: review\ndescription: «${same}»\n---\n\nReview.\n`,
    'kitty/merge/SKILL.md': `---\nname: merge\ndescription: «${same} Squashes the commits.»\n---\n\nMerge.\n`,
    // The same three copied for other clients: each copy is told of the skills beside it, not of the copies.
    '.agents/skills/plan/SKILL.md': `---\nname: plan\ndescription: «${same}»\n---\n\nPlan.\n`,
    '.agents/skills/review/SKILL.md': `---\nname: review\ndescription: «${same}»\n---\n\nReview.\n`,
    '.agents/skills/merge/SKILL.md': `---\nname: merge\ndescription: «${same} Squashes the commits.»\n---\n\nMerge.\n`,
  });
  const all = findings(root, written);
  const found = expectIn(all, 'similar_descriptions', written);
  assert.match(
    found[0].message,
    /^This description and that of `review` \(\.\.\/review\/SKILL\.md\) share .*; so do those of `merge`: /,
  );
  assert.deepEqual(
    found[0].related!.map((place) => path.relative(root, place.file)),
    ['kitty/review/SKILL.md', 'kitty/merge/SKILL.md'],
  );
  assert.deepEqual(
    all.filter((item) => item.code === 'shadowed_skill'),
    [],
    'copies of one skill do not collide',
  );
});

test('skill_list_over_budget: the names and descriptions of the skills Codex reads past what it lists, at the largest description; skills it does not read are not counted', () => {
  const files: Record<string, string> = {};
  for (let index = 0; index < 9; index++) {
    const description = `Handles case ${index} of the billing flow. ${'Explains each field and what to check. '.repeat(22)}`;
    files[`repo/.agents/skills/billing-${index}/SKILL.md`] =
      index === 4
        ? `---\nname: billing-${index}\ndescription: «${description}More.»\n---\n\nBill.\n`
        : skill(`billing-${index}`, description);
  }
  const { root, written } = library(files);
  const all = findings(root, written);
  const [found] = expectIn(all, 'skill_list_over_budget', written);
  assert.match(found.message, /the 9 skills Codex lists take 8,\d{3} characters; Codex lists skills up to 8,000/);
  // The same skills outside the folders Codex reads, and written for no client: no list of Codex's to overflow.
  const elsewhere = library(
    Object.fromEntries(
      Object.entries(files).map(([relative, text]) => [relative.replace('repo/.agents/skills/', 'lib/'), text]),
    ),
  );
  assert.deepEqual(
    findings(elsewhere.root, elsewhere.written).filter((item) => item.code === 'skill_list_over_budget'),
    [],
  );
});

test('skill_call_cycle: skills invoking each other in a ring, in each at its call of the next; links between skills are not calls', () => {
  const { root, written } = library({
    'fix-findings/SKILL.md': skill(
      'fix-findings',
      'Fixes what a review found. Use after a review.',
      'Then use Skill(«verify-fix»).',
    ),
    'verify-fix/SKILL.md': skill(
      'verify-fix',
      'Checks that fixes hold. Use after fixing.',
      'When it fails, run $«review» again.',
    ),
    'review/SKILL.md': skill('review', 'Reviews a change. Use on a pull request.', 'Then run /«fix-findings».'),
    'notes/SKILL.md': skill('notes', 'Keeps notes. Use when asked.', 'See [guide](../guide/SKILL.md).'),
    'guide/SKILL.md': skill('guide', 'A guide. Use when lost.', 'See [notes](../notes/SKILL.md).'),
  });
  const all = findings(root, written);
  const [first, second] = expectIn(all, 'skill_call_cycle', written);
  assert.match(first.message, /`fix-findings` → `verify-fix` → `review` → `fix-findings`/);
  assert.match(second.message, /`verify-fix` → `review` → `fix-findings` → `verify-fix`/);
  assert.deepEqual(
    first.related!.map((place) => [path.relative(root, place.file), place.range.start.line, place.message]),
    [
      ['verify-fix/SKILL.md', 5, '`verify-fix` invokes `review`'],
      ['review/SKILL.md', 5, '`review` invokes `fix-findings`'],
    ],
  );
});

test('cypher: a constraint per label, then an UNWIND of MERGEs per label and per relationship type, strings escaped', () => {
  const { root, written } = library({
    'a/SKILL.md': skill('a-skill', "It's a \\ skill. Use when asked.", 'Then run /b-skill.'),
    'b/SKILL.md': skill('b-skill', 'Another. Use when asked.', 'See [a](../a/SKILL.md).'),
  });
  const built = buildLibrary(
    new NodeFileSystem(),
    Object.values(written).map((item) => item.file),
    root,
  );
  const cypher = libraryCypher(libraryGraphOf(built, new Map(), (file) => path.relative(root, file)));
  // A plain skill has no procedure: its AIP fields are written empty (in the clause, as lists), so every skill has
  // every property.
  const plain = "format: 'agent-skill', purpose: '', scope_and_approval: ''";
  assert.deepEqual(cypher.trim().split('\n'), [
    'CREATE CONSTRAINT skill_file IF NOT EXISTS FOR (n:Skill) REQUIRE n.file IS UNIQUE;',
    'CREATE CONSTRAINT step_id IF NOT EXISTS FOR (n:Step) REQUIRE n.id IS UNIQUE;',
    'CREATE CONSTRAINT script_hash IF NOT EXISTS FOR (n:Script) REQUIRE n.hash IS UNIQUE;',
    `UNWIND [{file: 'a/SKILL.md', name: 'a-skill', scope: 'other', description: 'It\\'s a \\\\ skill. Use when asked.', ${plain}}, ` +
      `{file: 'b/SKILL.md', name: 'b-skill', scope: 'other', description: 'Another. Use when asked.', ${plain}}] AS row ` +
      'MERGE (n:Skill {file: row.file}) SET n.name = row.name, n.scope = row.scope, n.description = row.description, ' +
      'n.format = row.format, n.purpose = row.purpose, n.trigger_when = [], n.do_not_use_when = [], n.anti_patterns = [], ' +
      'n.scope_and_approval = row.scope_and_approval;',
    "UNWIND [{a: 'a/SKILL.md', b: 'b/SKILL.md', how: 'slash'}] AS row MATCH (a:Skill {file: row.a}), (b:Skill {file: row.b}) MERGE (a)-[:INVOKES {how: row.how}]->(b);",
    "UNWIND [{a: 'b/SKILL.md', b: 'a/SKILL.md'}] AS row MATCH (a:Skill {file: row.a}), (b:Skill {file: row.b}) MERGE (a)-[:LINKS_TO]->(b);",
  ]);
  // A row names a relationship's ends `a` and `b`: a property of either name would be read as an end.
  for (const [type, { properties }] of Object.entries(RELATIONSHIP_TYPES))
    assert.ok(!('a' in properties) && !('b' in properties), type);
});

test('cypher: rows are grouped by which lists are empty and cut into statements of 500, every node written once', () => {
  const skills: GraphNode[] = Array.from({ length: 1200 }, (_, index) => {
    const file = `s${index}/SKILL.md`;
    const properties: Record<string, PropertyValue> = {
      file,
      name: `s${index}`,
      trigger_when: index % 3 === 0 ? ['x'] : [],
    };
    return { label: 'Skill', key: file, properties };
  });
  const statements = libraryCypher({ nodes: skills, relationships: [] })
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('UNWIND '));
  const files = (statement: string) => [...statement.matchAll(/\{file: '([^']+)'/g)].map((found) => found[1]);
  // The first skill lists a trigger: its group (every third skill, 400) comes first, then the 800 with none.
  assert.deepEqual(
    statements.map((statement) => files(statement).length),
    [400, 500, 300],
  );
  // (Checked with includes: a failing match would print the whole statement.)
  assert.ok(statements[0].includes(' n.trigger_when = row.trigger_when, '));
  assert.ok(statements[0].startsWith("UNWIND [{file: 's0/SKILL.md', name: 's0', trigger_when: ['x']}, "));
  for (const statement of statements.slice(1)) {
    assert.ok(statement.includes(' n.trigger_when = [], '));
    assert.ok(!statement.includes('trigger_when: '));
  }
  assert.deepEqual(statements.flatMap(files).sort(), skills.map((node) => node.key).sort());
});

test("a MetaSkill's skill: steps and route cases are edges of the library; one naming no skill is left to the MetaSkill checks", () => {
  const meta = (steps: string) =>
    `---\nname: release-all\ndescription: Releases everything. Use on release day.\nkind: meta\ncomposition:\n  steps:\n${steps}---\n\nRuns them.\n`;
  const { root, written } = library({
    'release-all/SKILL.md': meta(
      "    - id: a\n      skill: deploy-site\n    - skill: 'ship-docs'  # quoted\n      id: b\n    - id: c\n      skill: deploy-sit\n" +
        '    - id: d\n      skill: notes\n      route:\n        - when: "urgent"\n          to: ship-docs\n        - {when: "late", to: "deploy-site"}\n',
    ),
    'deploy-site/SKILL.md': skill('deploy-site', 'Deploys the site. Use when it must go live.'),
    'ship-docs/SKILL.md': skill('ship-docs', 'Ships the docs. Use when they changed.'),
    // Not a MetaSkill: a `skill:` key is nothing here.
    'notes/SKILL.md': `---\nname: notes\ndescription: Keeps notes. Use when asked.\nmetadata:\n  skill: deploy-site\n---\n\nHi.\n`,
  });
  const built = buildLibrary(
    new NodeFileSystem(),
    Object.values(written).map((item) => item.file),
    root,
  );
  const release = written['release-all/SKILL.md'];
  assert.deepEqual(
    built.edges.map((edge) => [
      path.relative(root, edge.from),
      path.relative(root, edge.to),
      edge.kind,
      release.text.slice(edge.span.start, edge.span.end),
    ]),
    [
      ['release-all/SKILL.md', 'deploy-site/SKILL.md', 'compose', 'deploy-site'],
      ['release-all/SKILL.md', 'ship-docs/SKILL.md', 'compose', 'ship-docs'],
      ['release-all/SKILL.md', 'notes/SKILL.md', 'compose', 'notes'],
      ['release-all/SKILL.md', 'ship-docs/SKILL.md', 'compose', 'ship-docs'],
      ['release-all/SKILL.md', 'deploy-site/SKILL.md', 'compose', 'deploy-site'],
    ],
  );
  assert.deepEqual(
    checkLibrary(built).filter((item) => item.code === 'unknown_skill_mention'),
    [],
    '`deploy-sit` is the MetaSkill checks’ unknown_skill, not reported twice',
  );
});

test("a meta_sop MetaSkill's Run and Invoke lines are edges of the library, and a ring through one is a cycle", () => {
  const { root, written } = library({
    'beta/SKILL.md': skill(
      'beta',
      'Builds it. Use before shipping.',
      'When the build changes the plan, run /«pipeline» again.',
    ),
    'pipeline/SKILL.md':
      '---\nname: pipeline\ndescription: Runs the pipeline. Use on a release.\nkind: meta_sop\n---\n\n' +
      '## Phase 1: Build\n\nRun `«beta»`. Save as `built`.\n\n## Phase 2: Ship\n\nInvoke `gamma` as agent with:\n- note: hi\nSave as `shipped`.\n',
    'gamma/SKILL.md': skill('gamma', 'Ships it. Use after building.', 'Run `beta` is prose here: not a MetaSkill.'),
  });
  const built = builtFrom(written, root);
  assert.deepEqual(edgesOf(built, root), [
    ['beta/SKILL.md', 'pipeline/SKILL.md', 'slash'],
    ['pipeline/SKILL.md', 'beta/SKILL.md', 'compose'],
    ['pipeline/SKILL.md', 'gamma/SKILL.md', 'compose'],
  ]);
  // In each skill of the ring, at its call of the next, the ring listed from it.
  const [inBeta, inPipeline] = expectIn(checkLibrary(built), 'skill_call_cycle', written);
  assert.match(inBeta.message, /`beta` \u2192 `pipeline` \u2192 `beta`/);
  assert.match(inPipeline.message, /`pipeline` \u2192 `beta` \u2192 `pipeline`/);
});

test('a mention is a call only where the text says to run it: routes, tables, notes and anchors are not calls', () => {
  const { root, written } = library({
    'health/SKILL.md': skill('health', 'Checks health. Use when a service is down.'),
    'status/SKILL.md': skill('status', 'Reports status. Use for a standup.'),
    'api-docs/SKILL.md': skill(
      'api-docs',
      'Documents an API. Use for a new service.',
      'The service answers `GET /health` and POST `/status`; see http://localhost:8080/status too.\n\n' +
        '| Command | What |\n|---|---|\n| /status | the bot replies |\n\n[Jump](#/health)\n',
    ),
    'review/SKILL.md': skill(
      'review',
      'Reviews a change. Use on a pull request.',
      'Check the diff (e.g. `/fix-findings` does the fixing).\n\n## Related skills\n\n- Use /fix-findings for the fixes\n',
    ),
    'fix-findings/SKILL.md': skill(
      'fix-findings',
      'Fixes what a review found. Use after a review.',
      'Prerequisite: /review. See also $review.\n',
    ),
  });
  const built = builtFrom(written, root);
  assert.deepEqual(
    edgesOf(built, root),
    [
      ['api-docs/SKILL.md', 'status/SKILL.md', 'link'],
      ['review/SKILL.md', 'fix-findings/SKILL.md', 'link'],
      ['review/SKILL.md', 'fix-findings/SKILL.md', 'link'],
      ['fix-findings/SKILL.md', 'review/SKILL.md', 'link'],
      ['fix-findings/SKILL.md', 'review/SKILL.md', 'link'],
    ],
    'the table names `status` (a note); the routes, the address and the anchor name nothing',
  );
  assert.deepEqual(
    checkLibrary(built).filter((item) => item.code === 'skill_call_cycle'),
    [],
  );
});

test('unknown_skill_mention: an instruction to run what is no skill, command file or built-in; notes and commands are quiet', () => {
  const { root, written } = library({
    '.claude/commands/publish.md': 'Publish it.\n',
    '.claude/skills/upload-report/SKILL.md': skill(
      'upload-report',
      'Uploads a report. Use when one is done.',
      'Run /«publish-report» to upload it.\n\n1. `/«tidy-up»` the folder.\n2. Then run /publish and /compact.\n\n' +
        '- `/archive` \u2014 what the archive bot answers\n\nSee also /elsewhere; the `/health` endpoint.\n\n' +
        // What a list a negation leads into says not to run is no instruction to run it.
        'The orchestrator explicitly DOES NOT:\n\n- Run `/deploy-everything` itself.\n- Call /wipe-cache\n\n' +
        // A negation inside the lead-in is not one over the list.
        'Fix the cause, not the symptom:\n\n- Run /«fix-cause» first.\n',
    ),
  });
  const all = findings(root, written);
  const found = expectIn(all, 'unknown_skill_mention', written);
  assert.match(
    found[0].message,
    /No skill of the library, command file or client's built-in command is named `publish-report`/,
  );
});
