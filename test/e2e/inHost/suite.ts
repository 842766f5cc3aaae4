// The in-editor API suite: assertions run inside a real VS Code extension host
// with the `vscode` API, against the installed Skillgraph extension. The
// code-server harness (inHost.test.ts) and @vscode/test-electron
// (`npm run test:electron`) both run it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export interface SuiteResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function skillUri(relative: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, relative);
}

const broken = () => skillUri('mistakes/broken-procedure/SKILL.md');
const csv = () => skillUri('csv-report/SKILL.md');

async function skillgraphDiagnostics(uri: vscode.Uri): Promise<vscode.Diagnostic[]> {
  return until(() => {
    const found = vscode.languages.getDiagnostics(uri).filter((item) => item.source === 'skillgraph');
    return found.length > 0 ? found : undefined;
  });
}

const codeOf = (item: vscode.Diagnostic) =>
  typeof item.code === 'object' ? String(item.code.value) : String(item.code);

const tests: [string, () => Promise<void>][] = [
  [
    'diagnostics of an opened skill come from the Skillgraph server',
    async () => {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(broken()));
      const diagnostics = await skillgraphDiagnostics(broken());
      const typo = diagnostics.find((item) => codeOf(item) === 'input_name_typo')!;
      assert.deepEqual([typo.range.start.line, typo.range.start.character, typo.range.end.character], [33, 14, 22]);
      assert.equal(typo.severity, vscode.DiagnosticSeverity.Warning);
    },
  ],
  [
    'hover on an input shows its type and producer',
    async () => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        broken(),
        new vscode.Position(46, 16),
      );
      const text = hovers
        .flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value)))
        .join('\n');
      assert.match(text, /\*\*input\*\* `rows`: `string`\n\nProduced by `clean-data` as `list\[object\]`/);
    },
  ],
  [
    'definition of an input is its producing output',
    async () => {
      const locations = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        broken(),
        new vscode.Position(46, 16),
      );
      const ranges = locations.map((location) => ('targetRange' in location ? location.targetRange : location.range));
      assert.deepEqual(
        ranges.map((range) => [range.start.line, range.start.character]),
        [[38, 14]],
      );
    },
  ],
  [
    'completion in depends_on offers steps that do not close a cycle',
    async () => {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(csv()));
      const line = (await vscode.workspace.openTextDocument(csv())).lineAt(62).text;
      assert.equal(line, '    depends_on: [profile-columns, choose-focus]');
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        csv(),
        new vscode.Position(62, 33),
      );
      const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
      assert.ok(labels.includes('load-table'), labels.join(','));
      assert.ok(!labels.includes('write-report'), 'write-report depends on itself');
    },
  ],
  [
    'a quick fix edit removes its diagnostic',
    async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        broken(),
        new vscode.Range(33, 16, 33, 16),
      );
      const change = actions.find((action) => action.title === 'Change to "raw-data"');
      assert.ok(change?.edit, actions.map((action) => action.title).join(', '));
      assert.ok(await vscode.workspace.applyEdit(change.edit));
      await until(() => !vscode.languages.getDiagnostics(broken()).some((item) => codeOf(item) === 'input_name_typo'));
    },
  ],
  [
    'rename of a step updates its references',
    async () => {
      const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
        'vscode.executeDocumentRenameProvider',
        broken(),
        new vscode.Position(41, 12),
        'summarize',
      );
      const edits = edit.get(broken());
      assert.deepEqual(
        edits.map((item) => [item.range.start.line, item.newText]),
        [
          [41, 'summarize'],
          [54, 'summarize'],
        ],
      );
    },
  ],
  [
    'document symbols list the steps and their ports',
    async () => {
      const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
        'vscode.executeDocumentSymbolProvider',
        csv(),
      );
      assert.deepEqual(
        symbols[0].children.map((step) => step.name),
        ['load-table', 'profile-columns', 'choose-focus', 'write-report'],
      );
      assert.deepEqual(
        symbols[0].children[3].children.map((port) => port.name),
        ['stats', 'focus-column', 'report-path'],
      );
    },
  ],
  [
    'a MetaSkill: a binding to a step that may not have run is reported on its name',
    async () => {
      const uri = skillUri('mistakes/broken-composition/SKILL.md');
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const scope = (await skillgraphDiagnostics(uri)).find((item) => codeOf(item) === 'binding_out_of_scope')!;
      assert.deepEqual([scope.range.start.line, scope.range.start.character, scope.range.end.character], [17, 33, 40]);
      assert.equal(scope.severity, vscode.DiagnosticSeverity.Warning);
    },
  ],
  [
    'a MetaSkill: definition of a composed skill opens its SKILL.md; outputs. completion ranks steps in scope first',
    async () => {
      const uri = skillUri('weekly-digest/SKILL.md');
      const document = await vscode.workspace.openTextDocument(uri);
      const definition = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        uri,
        new vscode.Position(28, 16),
      );
      const target = definition.map((location) => ('targetUri' in location ? location.targetUri : location.uri).path);
      assert.deepEqual(
        target.map((file) => file.split('/').slice(-2).join('/')),
        ['csv-report/SKILL.md'],
      );
      const line = document.lineAt(52).text;
      const at = new vscode.Position(52, line.indexOf('outputs.') + 'outputs.'.length);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        uri,
        at,
        '.',
      );
      const ranked = [...list.items]
        .sort((a, b) => String(a.sortText).localeCompare(String(b.sortText)))
        .map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
      // digest_fallback substitutes for digest, so it sees what digest depends on.
      assert.deepEqual(ranked.slice(0, 3).sort(), ['metrics', 'scope', 'shipped']);
    },
  ],
  [
    'the restart command brings the server back with its diagnostics',
    async () => {
      // Diagnostics are pulled for visible editors: show the skill whose diagnostics are awaited.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(csv()));
      await vscode.commands.executeCommand('skillgraph.restartServer');
      await skillgraphDiagnostics(csv());
      const hovers = await until(async () => {
        const found = await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          csv(),
          new vscode.Position(27, 16),
        );
        return found.length > 0 ? found : undefined;
      });
      assert.ok(hovers.length > 0);
    },
  ],
  [
    "a finding VS Code's own skill check shows at the same place is left out; its quick fix stays; a setting shows it again",
    async () => {
      const settings = vscode.workspace.getConfiguration('skillgraph');
      await settings.update('profile', 'vscode', vscode.ConfigurationTarget.Global);
      const folder = skillUri('overlap-folder');
      const file = vscode.Uri.joinPath(folder, 'SKILL.md');
      await vscode.workspace.fs.writeFile(
        file,
        Buffer.from(
          '---\nname: other-name\ndescription: Does one thing. Use when testing the overlap.\nfoo: bar\n---\n\n# Body\n',
        ),
      );
      try {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
        const codes = () =>
          vscode.languages
            .getDiagnostics(file)
            .filter((item) => item.source === 'skillgraph')
            .map(codeOf);
        // VS Code's own finding, then Skillgraph's without the same one.
        await until(() =>
          vscode.languages
            .getDiagnostics(file)
            .find((item) => item.source === undefined && /should match the folder name/.test(item.message)),
        );
        await until(() => codes().includes('unknown_frontmatter_key') && !codes().includes('name_mismatch'));
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          file,
          new vscode.Range(1, 8, 1, 8),
        );
        assert.ok(
          actions.some((action) => action.title === 'Rename the skill to "overlap-folder" (its folder name)'),
          actions.map((action) => action.title).join(', '),
        );
        await settings.update('diagnostics.repeatVSCodeFindings', true, vscode.ConfigurationTarget.Global);
        await until(() => codes().includes('name_mismatch'));
      } finally {
        await settings.update('diagnostics.repeatVSCodeFindings', undefined, vscode.ConfigurationTarget.Global);
        await settings.update('profile', undefined, vscode.ConfigurationTarget.Global);
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        await vscode.workspace.fs.delete(folder, { recursive: true });
      }
    },
  ],
  [
    "vscode profile: a skill without `name` is a warning, as VS Code's own check reports it",
    async () => {
      const settings = vscode.workspace.getConfiguration('skillgraph');
      await settings.update('profile', 'vscode', vscode.ConfigurationTarget.Global);
      // Every Skillgraph finding shown, so its severity can be compared with VS Code's.
      await settings.update('diagnostics.repeatVSCodeFindings', true, vscode.ConfigurationTarget.Global);
      const folder = skillUri('nameless-skill');
      const file = vscode.Uri.joinPath(folder, 'SKILL.md');
      await vscode.workspace.fs.writeFile(
        file,
        Buffer.from('---\ndescription: Does one thing. Use when testing a skill without a name.\n---\n\n# Body\n'),
      );
      try {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
        const theirs = await until(() =>
          vscode.languages
            .getDiagnostics(file)
            .find((item) => item.source === undefined && item.message === 'Skill should provide a name.'),
        );
        assert.equal(theirs.severity, vscode.DiagnosticSeverity.Warning);
        const ours = await until(() =>
          vscode.languages
            .getDiagnostics(file)
            .find((item) => item.source === 'skillgraph' && codeOf(item) === 'missing_required_frontmatter'),
        );
        assert.equal(ours.severity, vscode.DiagnosticSeverity.Warning);
        assert.deepEqual(
          [ours.range.start.line, ours.range.start.character],
          [theirs.range.start.line, theirs.range.start.character],
          'at the same place, so VS Code shows one of them without the setting',
        );
      } finally {
        await settings.update('diagnostics.repeatVSCodeFindings', undefined, vscode.ConfigurationTarget.Global);
        await settings.update('profile', undefined, vscode.ConfigurationTarget.Global);
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        await vscode.workspace.fs.delete(folder, { recursive: true });
      }
    },
  ],
];

/** Runs every test and reports each; never throws. */
export async function runAll(): Promise<SuiteResult[]> {
  const results: SuiteResult[] = [];
  for (const [name, body] of tests) {
    const start = Date.now();
    try {
      await body();
      results.push({ name, ok: true, ms: Date.now() - start });
    } catch (error) {
      results.push({ name, ok: false, ms: Date.now() - start, error: String((error as Error).stack ?? error) });
    }
  }
  return results;
}

/** The @vscode/test-electron entry point: resolves when every test passed. */
export async function run(): Promise<void> {
  const results = await runAll();
  for (const result of results)
    console.log(`${result.ok ? '✔' : '✖'} ${result.name} (${result.ms} ms)${result.error ? `\n${result.error}` : ''}`);
  const failed = results.filter((result) => !result.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  if (failed > 0) throw new Error(`${failed} in-editor test(s) failed`);
}
