import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { copyExamples, positionOf, SERVER } from '../support/lspClient';
import { recipeSnippet } from './recipeSnippet';

/** Where an editor test runs: a copy of examples/, a home, and `skillgraph-server` on PATH as `npm link` leaves it. */
export interface EditorFixture {
  root: string;
  home: string;
  /** The environment the editor runs with: the home, and the server on PATH. */
  env: Record<string, string>;
  /** docs/editors.md's recipe for the editor, written where the editor can load it. */
  recipe: string;
  /**
   * A skill whose findings depend on both settings: its folder is not its name (name_mismatch, an error) and it
   * has a Claude Code key (unknown to the open specification, a warning; accepted under the claude-code profile).
   */
  settingsSkill: string;
  remove(): void;
}

export function editorFixture(heading: string, language: string, extension: string): EditorFixture {
  const root = copyExamples();
  const home = path.join(root, '.home');
  const bin = path.join(home, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(SERVER, path.join(bin, 'skillgraph-server'));
  const recipe = path.join(home, `recipe.${extension}`);
  writeFileSync(recipe, recipeSnippet(heading, language));
  const settingsSkill = path.join(root, 'settings', 'wrong', 'SKILL.md');
  mkdirSync(path.dirname(settingsSkill), { recursive: true });
  writeFileSync(
    settingsSkill,
    '---\nname: other-name\ndescription: Says hello when asked to greet someone.\ndisable-model-invocation: true\n---\n\n# Hello\n',
  );
  return {
    root,
    home,
    env: { HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
    recipe,
    settingsSkill,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Where the editor asks for a definition and a hover, as the drivers read them from the environment. */
export function positions(
  file: string,
  definition: [string, number, number?],
  hover: [string, number, number?],
): Record<string, string> {
  const text = readFileSync(file, 'utf8');
  const [d, h] = [positionOf(text, ...definition), positionOf(text, ...hover)];
  return {
    DEFINITION_LINE: String(d.line),
    DEFINITION_CHAR: String(d.character),
    HOVER_LINE: String(h.line),
    HOVER_CHAR: String(h.character),
  };
}

/**
 * In the copy of examples/: a file of every kind the server answers for (a SKILL.md, and each file of a skill+
 * package, as the VS Code extension's document selector lists them) and files it has nothing to say about. An
 * editor recipe must give the server the first and leave the second to the editor's other servers.
 */
export function skillFileKinds(root: string): { skill: string[]; other: string[] } {
  const trip = path.join(root, 'trip-planner');
  // The example package's flow is in Python; a package may write it in YAML instead.
  const yamlFlow = path.join(root, 'yaml-flow', 'flow.yaml');
  mkdirSync(path.dirname(yamlFlow), { recursive: true });
  writeFileSync(yamlFlow, 'stages: []\n');
  return {
    skill: [
      path.join(root, 'csv-report', 'SKILL.md'),
      ...['flow.py', 'state.py', 'spec.md', 'references/packing.md', 'rules/cite.md', 'rules/no-secrets.py'].map(
        (file) => path.join(trip, file),
      ),
      yamlFlow,
    ],
    other: [path.join(root, 'mistakes', 'README.md'), path.join(root, 'csv-report', 'scripts', 'profile_columns.py')],
  };
}
