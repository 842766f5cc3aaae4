import * as path from 'node:path';

/**
 * The first text of a new script, in the language its extension names,
 * reading the step's state as JSON on stdin and writing JSON to stdout
 * (how AIP runs scripts).
 */
export function scriptStub(scriptPath: string, stepName: string, description: string | undefined): string {
  const summary = (description ?? `The ${stepName} step.`).trim().split('\n')[0];
  switch (path.extname(scriptPath)) {
    case '.py':
      return `"""${summary}"""\nimport json\nimport sys\n\n\ndef main() -> None:\n    state = json.load(sys.stdin)\n    # TODO: do the work of step "${stepName}" and write its outputs.\n    json.dump(state, sys.stdout)\n\n\nif __name__ == "__main__":\n    main()\n`;
    case '.sh':
    case '.bash':
      return `#!/usr/bin/env bash\n# ${summary}\nset -euo pipefail\n\nstate=$(cat)\n# TODO: do the work of step "${stepName}" and print its outputs as JSON.\nprintf '%s\\n' "$state"\n`;
    case '.js':
    case '.mjs':
    case '.cjs':
      return `#!/usr/bin/env node\n// ${summary}\nlet input = '';\nprocess.stdin.on('data', (chunk) => (input += chunk));\nprocess.stdin.on('end', () => {\n  const state = JSON.parse(input || '{}');\n  // TODO: do the work of step "${stepName}" and write its outputs.\n  process.stdout.write(JSON.stringify(state));\n});\n`;
    case '.ts':
      return `// ${summary}\nimport { readFileSync } from 'node:fs';\n\nconst state = JSON.parse(readFileSync(0, 'utf8') || '{}');\n// TODO: do the work of step "${stepName}" and write its outputs.\nprocess.stdout.write(JSON.stringify(state));\n`;
    default:
      return `# ${summary}\n# TODO: do the work of step "${stepName}".\n`;
  }
}
