import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { SERVER_SETTING_KEYS, SETTINGS_SECTION } from '../../server/src/protocol';
import { editorSettings } from '../../server/src/service/settings';
import { recipeSnippet } from './recipeSnippet';

// The recipes for editors that cannot be installed here (Helix, Zed, JetBrains with LSP4IJ), checked against each
// editor's documented format: the keys it reads, the values it expects, and settings the server accepts whole.

const REPO = path.join(__dirname, '..', '..');
/** TOML as plain objects (the parser's tables have no prototype). */
const toml = (text: string): unknown => JSON.parse(JSON.stringify(parseToml(text)));
const editorFile = (...parts: string[]) => readFileSync(path.join(REPO, 'editors', ...parts), 'utf8');

/** Settings as an editor would send them: every key one the server reads, nothing it would ignore. */
function assertUsableSettings(raw: unknown, where: string): void {
  assert.ok(typeof raw === 'object' && raw !== null, `${where}: settings are an object`);
  for (const key of Object.keys(raw))
    assert.ok((SERVER_SETTING_KEYS as readonly string[]).includes(key), `${where}: ${key}`);
  const { description } = editorSettings([{ source: 'initializationOptions', raw }], '/ws');
  assert.doesNotMatch(description, /ignored/, `${where}: ${description}`);
}

test('Helix: languages.toml as Helix 23.10+ reads it; the server joins Markdown, keeping its grammar and marksman', () => {
  const config = toml(recipeSnippet('Helix', 'toml')) as {
    'language-server': Record<string, Record<string, unknown>>;
    language: Record<string, unknown>[];
  };
  // docs.helix-editor.com/languages.html: a [language-server.<name>] table of command, args, config, timeout,
  // environment, required-root-patterns; `config` is sent as initializationOptions.
  const server = config['language-server'].skillgraph;
  for (const key of Object.keys(server))
    assert.ok(['command', 'args', 'config', 'timeout', 'environment', 'required-root-patterns'].includes(key), key);
  assert.equal(server.command, 'skillgraph-server');
  assert.deepEqual(server.args, ['--stdio']);
  assertUsableSettings(server.config, 'Helix config');
  // A built-in language extended, not a new one: a new language name has no highlight queries of its own.
  assert.deepEqual(config.language, [{ name: 'markdown', 'language-servers': ['marksman', 'skillgraph'] }]);
  // `language-servers` lists arrived in Helix 23.10; docs/editors.md must say so.
  assert.match(recipeSection('Helix'), /Helix 23\.10 or later/);
});

test('Zed: an extension as Zed documents them, starting the server on PATH with the user’s lsp settings', () => {
  const manifest = toml(editorFile('zed', 'extension.toml')) as Record<string, unknown> & {
    language_servers: Record<string, { name: string; languages: string[] }>;
  };
  // zed.dev/docs/extensions/developing-extensions: id, name, version, schema_version, authors, description,
  // repository; language servers under [language_servers.<id>] with the languages they serve.
  for (const key of ['id', 'name', 'version', 'schema_version', 'authors', 'description', 'repository'])
    assert.ok(manifest[key] !== undefined, key);
  assert.equal(manifest.schema_version, 1);
  assert.deepEqual(Object.keys(manifest.language_servers), ['skillgraph']);
  assert.deepEqual(manifest.language_servers.skillgraph.languages, ['Markdown', 'Python', 'YAML']);
  const cargo = toml(editorFile('zed', 'Cargo.toml')) as {
    lib: { 'crate-type': string[] };
    dependencies: Record<string, string>;
  };
  assert.deepEqual(cargo.lib['crate-type'], ['cdylib']);
  assert.ok(cargo.dependencies.zed_extension_api);
  const source = editorFile('zed', 'src', 'lib.rs');
  assert.match(source, /zed::register_extension!\(Skillgraph\)/);
  assert.match(source, /which\("skillgraph-server"\)/);
  assert.match(source, /args: vec!\["--stdio"\.into\(\)\]/);
  // Zed answers workspace/configuration from what the extension returns, by section.
  assert.ok(source.includes(`json!({ "${SETTINGS_SECTION}": section })`));
  const settings = JSON.parse(recipeSnippet('Zed', 'json')) as { lsp: Record<string, { settings: unknown }> };
  assert.deepEqual(Object.keys(settings.lsp), ['skillgraph']);
  assertUsableSettings(settings.lsp.skillgraph.settings, 'Zed settings');
});

test('JetBrains: an LSP4IJ custom template (template.json, settings.json) mapping the skill files by name', () => {
  const template = JSON.parse(editorFile('jetbrains', 'skillgraph', 'template.json')) as Record<string, unknown> & {
    programArgs: Record<string, string>;
    fileTypeMappings: { fileType: { name?: string; patterns: string[] }; languageId: string }[];
  };
  // LSP4IJ's templates: id, name, programArgs (default, and per OS), fileTypeMappings and languageMappings.
  for (const key of Object.keys(template))
    assert.ok(['id', 'name', 'programArgs', 'fileTypeMappings', 'languageMappings'].includes(key), key);
  assert.equal(template.programArgs.default, 'skillgraph-server --stdio');
  const patterns = template.fileTypeMappings.flatMap((mapping) => mapping.fileType.patterns);
  assert.deepEqual(patterns.sort(), ['SKILL.md', 'flow.py', 'flow.yaml', 'spec.md', 'state.py']);
  assert.ok(
    patterns.every((pattern) => !pattern.includes('/')),
    'LSP4IJ matches file names, not paths',
  );
  const settings = JSON.parse(editorFile('jetbrains', 'skillgraph', 'settings.json')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(settings), [SETTINGS_SECTION]);
  assertUsableSettings(settings[SETTINGS_SECTION], 'LSP4IJ settings.json');
});

/** docs/editors.md's `### heading` section, prose included. */
function recipeSection(heading: string): string {
  const text = readFileSync(path.join(REPO, 'docs', 'editors.md'), 'utf8');
  const start = text.indexOf(`\n### ${heading}\n`);
  return text.slice(start, text.indexOf('\n### ', start + 1));
}
