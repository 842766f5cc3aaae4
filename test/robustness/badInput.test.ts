import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyzeSkill, type SkillAnalysis } from '../../server/src/analyze';
import { PROFILE_IDS } from '../../server/src/platforms/profiles';
import { MemoryFileSystem } from '../../server/src/workspace/memoryFileSystem';
import { NodeFileSystem, type FileSystem } from '../../server/src/workspace/fileSystem';
import { CORPUS } from '../support/corpus';
import { random } from '../support/random';

const SKILL = '/skills/probe/SKILL.md';

function allFiles(dir: string): string[] {
  const fs = new NodeFileSystem();
  return fs.readDirectory(dir).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.kind === 'directory') return allFiles(full);
    return entry.kind === 'file' ? [full] : [];
  });
}

function assertSound(analysis: SkillAnalysis, label: string): void {
  for (const item of analysis.diagnostics) {
    // A finding about another file of the package (skill+) is located in that file's text.
    const text = item.file === analysis.file ? analysis.text : analysis.sources.get(item.file);
    assert.ok(
      text !== undefined || item.span.end === 0,
      `${label}: ${item.code} in ${item.file}, a file the analysis did not read`,
    );
    const length = text?.length ?? 0;
    assert.ok(
      item.span.start >= 0 && item.span.start <= item.span.end && item.span.end <= length,
      `${label}: ${item.code} span ${item.span.start}-${item.span.end} outside 0-${length} of ${item.file}`,
    );
    assert.ok(item.message.length > 0, `${label}: ${item.code} has no message`);
  }
}

const corpusFiles = allFiles(CORPUS);

test('every file of the corpus, read as a SKILL.md under every profile: located diagnostics, no exception', () => {
  assert.ok(corpusFiles.length > 400);
  for (const file of corpusFiles) {
    const fs = new MemoryFileSystem({ [SKILL]: readFileSync(file) });
    for (const profile of PROFILE_IDS) assertSound(analyzeSkill(fs, SKILL, { profile }), `${file} (${profile})`);
  }
});

test('corpus skills edited at random positions: every result is sound', () => {
  const skills = corpusFiles.filter((file) => file.endsWith('SKILL.md'));
  const pieces = [
    ':',
    ': ',
    '\n',
    '---\n',
    '"',
    "'",
    '[',
    ']',
    '{',
    '- ',
    '  ',
    '```',
    '```yaml\n',
    '&a ',
    '*a',
    '\t',
    '#',
    '\\',
    '../',
    'steps:\n',
    'depends_on: [x]\n',
    '\u0000',
    '😀',
  ];
  let runs = 0;
  for (const [index, file] of skills.entries()) {
    const next = random(index + 1);
    let text = readFileSync(file, 'utf8');
    const fs = new MemoryFileSystem();
    for (let edit = 0; edit < 25; edit++) {
      const at = Math.floor(next() * (text.length + 1));
      if (next() < 0.3) text = text.slice(0, at) + text.slice(Math.min(text.length, at + Math.floor(next() * 40)));
      else text = text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
      fs.write(SKILL, text);
      assertSound(analyzeSkill(fs, SKILL), `${file} edit ${edit}`);
      runs++;
    }
  }
  assert.ok(runs >= 1000);
});

test('an empty SKILL.md, a lone ---, and whitespace only', () => {
  for (const text of ['', '---', '---\n', '\n\n  \n', '---\n---\n', '---\n---']) {
    const fs = new MemoryFileSystem({ [SKILL]: text });
    const analysis = analyzeSkill(fs, SKILL);
    assertSound(analysis, JSON.stringify(text));
    assert.ok(
      analysis.diagnostics.some((item) => item.severity === 'error'),
      `${JSON.stringify(text)} should be an error`,
    );
  }
});

test('a body of unclosed quotes after awk and bash -c, replacement calls and cell references, under claude-code: located, each `$N` once', () => {
  const frontmatter = '---\nname: probe\ndescription: Probes. Use when testing.\n---\n';
  for (const body of [
    'awk "$1 '.repeat(50_000),
    "awk -F '$1 ".repeat(50_000),
    "bash -c '$1 ".repeat(50_000),
    '.replace($1 '.repeat(50_000),
    '=$A$1+'.repeat(50_000),
    '```awk\n' + "awk '{print $1}' ".repeat(20_000) + '\n```\n',
  ]) {
    const analysis = analyzeSkill(new MemoryFileSystem({ [SKILL]: frontmatter + body }), SKILL, {
      profile: 'claude-code',
    });
    assertSound(analysis, body.slice(0, 20));
    const starts = analysis.diagnostics
      .filter((item) => item.code === 'placeholder_collision')
      .flatMap((item) => item.data!.escapes as number[]);
    assert.equal(new Set(starts).size, starts.length, `${body.slice(0, 20)}: a $N in two findings`);
  }
});

test('a 10 MB SKILL.md on disk: checked by the CLI with one located error', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sg-big-'));
  mkdirSync(path.join(dir, 'big'));
  writeFileSync(
    path.join(dir, 'big', 'SKILL.md'),
    '---\nname: big\ndescription: x\n---\n' + 'word '.repeat(2 * 1024 * 1024),
  );
  const result = spawnSync(
    process.execPath,
    [path.join(__dirname, '..', '..', 'dist', 'cli.js'), 'check', dir, '--format', 'json'],
    { encoding: 'utf8' },
  );
  assert.equal(result.status, 1);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(
    report.diagnostics.map((item: { code: string; range: unknown }) => [item.code, item.range]),
    [['file_too_large', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }]],
  );
});

test('a link to a pipe, a folder or a huge file on disk: the CLI finishes, the links it can read still checked', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sg-special-'));
  mkdirSync(path.join(dir, 'probe', 'references', 'folder.md'), { recursive: true });
  writeFileSync(
    path.join(dir, 'probe', 'SKILL.md'),
    '---\nname: probe\ndescription: A probe. Use when testing.\n---\n\nSee [pipe](references/pipe.md), [folder](references/folder.md), [huge](references/huge.md) and [guide](references/guide.md).\n',
  );
  writeFileSync(path.join(dir, 'probe', 'references', 'guide.md'), 'Then [more](more.md).\n');
  writeFileSync(path.join(dir, 'probe', 'references', 'more.md'), 'More.\n');
  writeFileSync(path.join(dir, 'probe', 'huge.txt'), Buffer.alloc(5 * 1024 * 1024, 0x61));
  symlinkSync('../huge.txt', path.join(dir, 'probe', 'references', 'huge.md'));
  // A pipe nobody writes to: opening it for a read used to wait forever.
  execFileSync('mkfifo', [path.join(dir, 'probe', 'references', 'pipe.md')]);
  const result = spawnSync(
    process.execPath,
    [path.join(__dirname, '..', '..', 'dist', 'cli.js'), 'check', dir, '--format', 'json'],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(result.signal, null, 'the check did not finish');
  const report = JSON.parse(result.stdout);
  // The huge file itself (linked to from references/) is named as not audited: the security rules read 512 KB at most.
  assert.deepEqual(
    report.diagnostics.map((item: { code: string }) => item.code),
    ['audit_incomplete', 'nested_reference'],
  );
  assert.match(report.diagnostics[0].message, /^`huge\.txt` was not audited: at 5120 KB/);
  assert.match(report.diagnostics[1].message, /references\/more\.md/);
});

test('a procedure over 1 MB, under the size limit, is analysed in full', () => {
  const steps = Array.from(
    { length: 12000 },
    (_, i) =>
      `  - name: step-${i}\n    description: Step ${i}.\n    inputs:\n      - name: v${i}\n    outputs:\n      - name: v${i + 1}\n`,
  ).join('');
  const text = `---\nname: probe\ndescription: x\nmetadata:\n  aip:\n    spec: https://example.test/v0.3a3\n    schemaId: https://example.test/v0.3a3/p.json\n---\n\n\`\`\`yaml\npurpose: P.\ntrigger_when: [x]\nsteps:\n${steps}\`\`\`\n`;
  assert.ok(text.length > 1_000_000);
  const analysis = analyzeSkill(new MemoryFileSystem({ [SKILL]: text }), SKILL);
  assert.equal(analysis.model.nodes.length, 12000);
  assert.equal(analysis.model.edges.filter((edge) => edge.kind === 'data').length, 11999);
  assertSound(analysis, 'large procedure');
});

test('a long depends_on cycle is reported once, naming every step', () => {
  const steps = Array.from(
    { length: 2000 },
    (_, i) => `  - name: s${i}\n    description: S.\n    depends_on: [s${(i + 1999) % 2000}]\n`,
  ).join('');
  const text = `---\nname: probe\ndescription: x\n---\n\n\`\`\`yaml\npurpose: P.\ntrigger_when: [x]\nsteps:\n${steps}\`\`\`\n`;
  const analysis = analyzeSkill(new MemoryFileSystem({ [SKILL]: text }), SKILL);
  const cycles = analysis.diagnostics.filter((item) => item.code === 'dependency_cycle');
  assert.equal(cycles.length, 1);
  assert.equal((cycles[0].data?.cycle as string[]).length, 2000);
});

/** Records every path the analyzer touches. */
class RecordingFileSystem implements FileSystem {
  readonly touched: string[] = [];
  constructor(private readonly inner: FileSystem) {}
  stat(file: string) {
    this.touched.push(file);
    return this.inner.stat(file);
  }
  readDirectory(dir: string) {
    this.touched.push(dir);
    return this.inner.readDirectory(dir);
  }
  readFile(file: string) {
    this.touched.push(file);
    return this.inner.readFile(file);
  }
  readWithin(file: string, maxBytes: number) {
    this.touched.push(file);
    return this.inner.readWithin(file, maxBytes);
  }
  realpath(file: string) {
    this.touched.push(file);
    return this.inner.realpath(file);
  }
}

test('paths that escape the skill are reported, and nothing outside the skill is ever read', () => {
  const memory = new MemoryFileSystem({
    [SKILL]:
      '---\nname: probe\ndescription: x\n---\n\n```yaml\npurpose: P.\ntrigger_when: [x]\nsteps:\n  - name: a\n    description: See ../../etc/passwd and [x](../other/SKILL.md).\n    script: ../../../etc/passwd\n  - name: b\n    description: B.\n    script: scripts/link.py\n```\n',
    '/secret/passwd': 'secret',
    '/skills/other/SKILL.md': 'other',
  });
  memory.symlink('/skills/probe/scripts/link.py', '/secret/passwd');
  const recording = new RecordingFileSystem(memory);
  const analysis = analyzeSkill(recording, SKILL);
  assert.deepEqual(
    analysis.diagnostics
      .filter((item) => item.code === 'path_escapes_skill')
      .map((item) => analysis.text.slice(item.span.start, item.span.end)),
    // A link to another skill's SKILL.md is the library's edge between them (judged by its path alone), not an escape.
    ['../../../etc/passwd', 'scripts/link.py'],
  );
  const reads = recording.touched.filter((file) => !file.startsWith('/skills/probe'));
  assert.deepEqual(reads, []);
});

test('MetaSkill bad input: located diagnostics, never a crash or a hang', () => {
  const head = '---\nname: probe\ndescription: x\nkind: meta\n';
  const cases: Record<string, string> = {
    'unclosed {{': `${head}composition:\n  steps:\n    - id: a\n      with: {task: "{{ outputs.a"}\n---\n`,
    'a template that is not a string': `${head}composition:\n  steps:\n    - id: a\n      with: {task: [1, {b: 2}], n: 3}\n      when: 7\n---\n`,
    'composition of the wrong type': `${head}composition: "steps"\n---\n`,
    'steps of the wrong type': `${head}composition:\n  steps: {a: 1}\n---\n`,
    'a cycle through substitutes': `${head}composition:\n  steps:\n    - id: a\n      kind: llm_chat\n      on_failure: b\n    - id: b\n      kind: llm_chat\n      on_failure: a\n---\n`,
    'a cycle through dependencies and bindings': `${head}composition:\n  steps:\n    - id: a\n      kind: llm_chat\n      depends_on: [b]\n      with: {t: "{{ outputs.b }}"}\n    - id: b\n      kind: llm_chat\n      depends_on: [a]\n      with: {t: "{{ outputs.a }}"}\n---\n`,
    'a SOP with nothing readable':
      '---\nname: probe\ndescription: x\nkind: meta_sop\n---\n## Phase x\n```yaml for_each\n: :\n```\n- a: b\nSave as `\n',
  };
  for (const [label, text] of Object.entries(cases)) {
    const fs = new MemoryFileSystem({ [SKILL]: text });
    const analysis = analyzeSkill(fs, SKILL);
    assertSound(analysis, label);
    assert.ok(
      analysis.diagnostics.some((item) => item.severity === 'error'),
      `${label}: ${JSON.stringify(analysis.diagnostics.map((item) => item.code))}`,
    );
  }
  // 2,000 steps, each reading the one before: one analysis, every step a node.
  const steps = Array.from(
    { length: 2000 },
    (_, i) =>
      `    - id: s${i}\n      kind: llm_chat\n${i > 0 ? `      depends_on: [s${i - 1}]\n      with: {task: "{{ outputs.s${i - 1} | truncate(100) }}"}\n` : ''}`,
  ).join('');
  const fs = new MemoryFileSystem({ [SKILL]: `${head}composition:\n  steps:\n${steps}---\n` });
  const analysis = analyzeSkill(fs, SKILL);
  assertSound(analysis, '2,000 steps');
  assert.equal(analysis.model.nodes.length, 2000);
  assert.equal(analysis.model.edges.filter((edge) => edge.kind === 'data').length, 1999);
  assert.deepEqual(
    analysis.diagnostics.filter((item) => item.severity === 'error'),
    [],
  );
});

/** The files of a corpus skill+ package, by path relative to the package. */
function packageFiles(name: string): Record<string, string> {
  const dir = path.join(CORPUS, 'skillplus', 'examples', name);
  return Object.fromEntries(allFiles(dir).map((file) => [path.relative(dir, file), readFileSync(file, 'utf8')]));
}

/** The package at /skills/<name> (its folder named as SKILL.md's `name`). */
function analyzeFiles(
  files: Record<string, string | Buffer>,
  name = 'competitor-brief',
  fs = new MemoryFileSystem(),
): SkillAnalysis {
  for (const [relative, content] of Object.entries(files)) fs.write(path.join('/skills', name, relative), content);
  return analyzeSkill(fs, path.join('/skills', name, 'SKILL.md'));
}

test('skill+ packages edited at random in every file: every finding located in its own file, no exception', () => {
  const pieces = [
    '(',
    ')',
    ':',
    '"',
    "'",
    '{',
    '}',
    '[',
    ']',
    '\n',
    '    ',
    'with ',
    'flow.',
    ' and ',
    ' or ',
    'not ',
    '=',
    ' in [',
    '---\n',
    '@rule(',
    'def ',
    'class ',
    '\\',
    '\u0000',
    '😀',
    'stage=',
    'into="',
  ];
  let runs = 0;
  for (const [index, name] of [
    'competitor-brief',
    'customer-refund',
    'dependency-upgrade',
    'incident-postmortem',
  ].entries()) {
    const files = packageFiles(name);
    const next = random(100 + index);
    const editable = Object.keys(files).filter((file) => /\.(py|md|yaml)$/.test(file));
    for (let edit = 0; edit < 60; edit++) {
      const file = editable[Math.floor(next() * editable.length)];
      const text = files[file];
      const at = Math.floor(next() * (text.length + 1));
      files[file] =
        next() < 0.3
          ? text.slice(0, at) + text.slice(Math.min(text.length, at + Math.floor(next() * 40)))
          : text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
      assertSound(analyzeFiles(files, name), `${name} edit ${edit} in ${file}`);
      runs++;
    }
  }
  assert.equal(runs, 240);
});

test('skill+ bad input: a flow.py that is not Python, a 10,000-character predicate, escaping paths, a rules folder of junk', () => {
  const base = packageFiles('competitor-brief');
  const notPython = analyzeFiles({
    ...base,
    'flow.py': 'def build(flow:\n    with flow.stage("a"\n        flow.agent("x", "y")\n',
  });
  assertSound(notPython, 'flow.py not Python');
  assert.ok(
    notPython.diagnostics.some((item) => item.code === 'dynamic_flow' && item.file.endsWith('flow.py')),
    JSON.stringify(notPython.diagnostics.map((item) => item.code)),
  );

  const long = Array.from({ length: 800 }, (_, i) => `scope_ok=${i % 2 === 0 ? 'true' : 'false'}`).join(' or ');
  assert.ok(long.length >= 10000);
  const longTip = analyzeFiles({ ...base, 'references/long.md': `---\nwhen: ${long} and nope=1\n---\nTip.\n` });
  assertSound(longTip, 'long predicate');
  assert.deepEqual(
    longTip.diagnostics.map((item) => [item.code, path.basename(item.file)]),
    [['unknown_predicate_path', 'long.md']],
  );

  // skillplus-state and skillplus-flow pointing out of the folder; a symlinked rule to a file outside: nothing outside
  // is read.
  const memory = new MemoryFileSystem({
    '/secret/state.py': 'class State:\n    x: str\n',
    '/secret/rule.py': '@rule(id="x", on_fail="deny")\ndef x(state, ctx):\n    return True\n',
  });
  const skill = base['SKILL.md'].replace(
    'skillplus-state: "state.py:State"',
    'skillplus-state: "../../secret/state.py:State"',
  );
  assert.notEqual(skill, base['SKILL.md']);
  const recording = new RecordingFileSystem(memory);
  for (const [relative, content] of Object.entries({ ...base, 'SKILL.md': skill }))
    memory.write(path.join('/skills/competitor-brief', relative), content);
  memory.symlink('/skills/competitor-brief/rules/outside.py', '/secret/rule.py');
  const escaping = analyzeSkill(recording, '/skills/competitor-brief/SKILL.md');
  assertSound(escaping, 'escaping paths');
  assert.ok(
    escaping.diagnostics.some(
      (item) => item.code === 'invalid_skillplus_metadata' && /inside the skill folder/.test(item.message),
    ),
  );
  assert.deepEqual(
    recording.touched.filter((file) => file.startsWith('/secret')),
    [],
  );

  const junk = analyzeFiles({
    ...base,
    'rules/blob.py': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]),
    'rules/empty.md': '',
    'rules/only-dashes.md': '---\n',
    'references/bad.md': '---\nwhen: [\n---\n',
  });
  assertSound(junk, 'junk rules');
  assert.deepEqual(
    junk.diagnostics.map((item) => `${path.relative('/skills/competitor-brief', item.file)} ${item.code}`).sort(),
    [
      'references/bad.md invalid_frontmatter',
      'rules/blob.py binary_file',
      'rules/empty.md invalid_on_fail',
      'rules/empty.md spec_unlisted_id',
      'rules/only-dashes.md invalid_on_fail',
      'rules/only-dashes.md spec_unlisted_id',
    ],
  );
});
