import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * In a copy of examples/: a file of every kind the server answers for (a SKILL.md, and each file of a skill+
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
