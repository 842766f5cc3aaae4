import * as path from 'node:path';
import type { Diagnostic } from '../engine/diagnostic';
import { fixOf, type Fix, type FixSource } from '../engine/fix';
import { scriptLanguage } from '../../platforms/shells';

/**
 * The first text of a new script, in the language its extension names,
 * reading the step's state as JSON on stdin and writing JSON to stdout
 * (how AIP runs scripts).
 */
export function scriptStub(scriptPath: string, stepName: string, description: string | undefined): string {
  const summary = (description ?? `The ${stepName} step.`).trim().split('\n')[0];
  switch (scriptLanguage(scriptPath)) {
    case 'python':
      return `"""${summary}"""\nimport json\nimport sys\n\n\ndef main() -> None:\n    state = json.load(sys.stdin)\n    # TODO: do the work of step "${stepName}" and write its outputs.\n    json.dump(state, sys.stdout)\n\n\nif __name__ == "__main__":\n    main()\n`;
    case 'shell':
      return `#!/usr/bin/env ${path.extname(scriptPath) === '.zsh' ? 'zsh' : 'bash'}\n# ${summary}\nset -euo pipefail\n\nstate=$(cat)\n# TODO: do the work of step "${stepName}" and print its outputs as JSON.\nprintf '%s\\n' "$state"\n`;
    case 'javascript':
      return `#!/usr/bin/env node\n// ${summary}\nlet input = '';\nprocess.stdin.on('data', (chunk) => (input += chunk));\nprocess.stdin.on('end', () => {\n  const state = JSON.parse(input || '{}');\n  // TODO: do the work of step "${stepName}" and write its outputs.\n  process.stdout.write(JSON.stringify(state));\n});\n`;
    case 'typescript':
      return `// ${summary}\nimport { readFileSync } from 'node:fs';\n\nconst state = JSON.parse(readFileSync(0, 'utf8') || '{}');\n// TODO: do the work of step "${stepName}" and write its outputs.\nprocess.stdout.write(JSON.stringify(state));\n`;
    default:
      return `# ${summary}\n# TODO: do the work of step "${stepName}".\n`;
  }
}

/** Creates a missing `scripts/…` file as a stub in its language; an existing file is never touched. */
export function createScriptFix(
  dir: string,
  item: Diagnostic,
  script: { path: string; step: string; description?: string },
): Fix[] {
  if (!script.path.startsWith('scripts/') || script.path.split('/').includes('..')) return [];
  return [
    fixOf(item, `Create ${script.path}`, 'unsafe', [
      {
        kind: 'create',
        file: path.join(dir, script.path),
        text: scriptStub(script.path, script.step, script.description),
      },
    ]),
  ];
}

/** The stub for the script a step of SKILL.md runs, when it does not exist. */
export function createStepScriptFix(item: Diagnostic, { model }: Pick<FixSource, 'model'>): Fix[] {
  if (item.file !== model.file) return [];
  const node = model.nodes.find((candidate) => candidate.script && candidate.script.span.start === item.span.start);
  if (!node?.script) return [];
  return createScriptFix(model.dir, item, {
    path: node.script.path,
    step: node.id,
    ...(node.description ? { description: node.description.text } : {}),
  });
}
