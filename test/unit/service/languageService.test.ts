import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { RenameError } from '../../../server/src/document/renameError';
import type { OpenText } from '../../../server/src/service/editorTypes';
import { LanguageService } from '../../../server/src/service/languageService';
import { editorSettings } from '../../../server/src/service/settings';

const readSettings = (raw: unknown, base: string) =>
  editorSettings([{ source: 'workspace configuration', raw }], base).settings;
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';
import { answerCustomRequest } from '../../../server/src/service/customRequests';
import { SkillInfoRequest } from '../../../server/src/protocol';

const EXAMPLES = path.join(__dirname, '..', '..', '..', 'examples');

/** The examples in memory under /ws, and a service over them with `open` documents (by path under /ws). */
function serviceOver(open: string[]) {
  const fs = new MemoryFileSystem();
  const copy = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) copy(full);
      else fs.write(path.join('/ws', path.relative(EXAMPLES, full)), readFileSync(full));
    }
  };
  copy(EXAMPLES);
  const documents = new Map<string, OpenText>();
  for (const relative of open) {
    const uri = pathToFileURL(path.join('/ws', relative)).href;
    documents.set(uri, { uri, version: 1, text: readFileSync(path.join(EXAMPLES, relative), 'utf8') });
  }
  const logged: string[] = [];
  const service = new LanguageService(
    fs,
    { get: (uri) => documents.get(uri), all: () => [...documents.values()] },
    (message) => logged.push(message),
  );
  return { service, logged, documents, uri: (relative: string) => pathToFileURL(path.join('/ws', relative)).href };
}

/** What `skillgraph/skillInfo` answers of a document, as the server's connection would. */
const skillInfo = (service: LanguageService, uri: string) =>
  answerCustomRequest(SkillInfoRequest, { uri }, service.requests);

test('a SKILL.md and a skill+ package file each get the features of their kind, from one analysis', () => {
  const { service, uri } = serviceOver(['trip-planner/SKILL.md', 'trip-planner/flow.py']);
  const skillSymbols = service.documentSymbols(uri('trip-planner/SKILL.md'));
  const flowSymbols = service.documentSymbols(uri('trip-planner/flow.py'));
  // The SKILL.md's outline is the skill without the flow's nodes, which live in flow.py; flow.py's is its stages.
  assert.deepEqual(
    skillSymbols.map((symbol) => [symbol.name, symbol.children?.length]),
    [['trip-planner', 0]],
  );
  assert.ok(flowSymbols.length > 1 && flowSymbols.every((symbol) => symbol.name !== 'trip-planner'));
  // Both answer from the same skill: the status counts every file's findings.
  assert.deepEqual(skillInfo(service, uri('trip-planner/flow.py')), skillInfo(service, uri('trip-planner/SKILL.md')));
  // flow.py's lens opens the preview; the SKILL.md's lenses open it and compile.
  assert.deepEqual(
    service.codeLenses(uri('trip-planner/flow.py')).map((lens) => lens.command?.command),
    ['skillgraph.openPreviewToSide'],
  );
  assert.deepEqual(
    service.codeLenses(uri('trip-planner/SKILL.md')).map((lens) => lens.command?.command),
    ['skillgraph.openPreviewToSide', 'skillgraph.compileSkill'],
  );
});

test('a document of no skill, or a cancelled request, gets the empty answer', () => {
  const { service, uri, documents } = serviceOver(['csv-report/SKILL.md']);
  const other = pathToFileURL('/ws/notes.md').href;
  documents.set(other, { uri: other, version: 1, text: '# Notes\n' });
  assert.equal(service.diagnostics(other), null);
  assert.deepEqual(service.definition(other, { line: 0, character: 2 }), []);
  const cancelled = { isCancellationRequested: true };
  assert.equal(service.hover(uri('csv-report/SKILL.md'), { line: 46, character: 16 }, cancelled), null);
  assert.equal(service.diagnostics(uri('csv-report/SKILL.md'), cancelled), null);
  assert.ok(service.hover(uri('csv-report/SKILL.md'), { line: 46, character: 16 }));
});

test('the settings decide the findings: a rule turned off is gone from the diagnostics, the counts and the fixes', () => {
  const { service, uri } = serviceOver(['mistakes/broken-procedure/SKILL.md']);
  const broken = uri('mistakes/broken-procedure/SKILL.md');
  const codes = () => service.diagnostics(broken)!.items.map((item) => item.code);
  assert.ok(codes().includes('input_name_typo'));
  const typo = service.diagnostics(broken)!.items.find((item) => item.code === 'input_name_typo')!;
  assert.ok(service.codeActions(broken, typo.range).some((action) => action.title.startsWith('Change to')));
  const warnings = skillInfo(service, broken)!.warnings;

  assert.deepEqual(service.configure(readSettings({ rules: { input_name_typo: 'off' } }, '/ws')), [broken]);
  assert.ok(!codes().includes('input_name_typo'));
  assert.equal(service.codeActions(broken, typo.range).filter((a) => a.title.startsWith('Change to')).length, 0);
  assert.ok(skillInfo(service, broken)!.warnings < warnings);

  service.configure(readSettings({ profile: 'codex', rules: { input_name_typo: 'error' } }, '/ws'));
  assert.equal(service.diagnostics(broken)!.items.find((item) => item.code === 'input_name_typo')?.severity, 1);
  assert.deepEqual(skillInfo(service, broken)!.profile, { id: 'codex', source: 'setting' });
});

test('a refused rename reaches the caller with its reason; any other failure is logged and answered empty', () => {
  const { service, uri, logged, documents } = serviceOver(['csv-report/SKILL.md']);
  const csv = uri('csv-report/SKILL.md');
  const text = String(documents.get(csv)!.text);
  const line = text.split('\n').findIndex((row) => row.includes('- name: load-table'));
  const at = { line, character: text.split('\n')[line].indexOf('load-table') + 2 };
  assert.throws(() => service.rename(csv, at, 'profile-columns'), RenameError);
  // A document whose text throws when read stands for a bug anywhere below the service.
  documents.set(csv, {
    uri: csv,
    version: 2,
    get text(): string {
      throw new Error('unreadable');
    },
  });
  assert.deepEqual(service.references(csv, at, true), []);
  assert.match(logged.join('\n'), /unreadable/);
});
