import type { Severity } from '../../checks/engine/diagnostic';
import type { CheckReport } from './report';

const COMMANDS: Record<Severity, string> = {
  error: 'error',
  warning: 'warning',
  information: 'notice',
  hint: 'notice',
};

/** GitHub Actions escapes: `%`, CR and LF everywhere; also `:` and `,` inside properties. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Workflow commands that GitHub Actions turns into annotations on the pull request. */
export function formatGithub(report: CheckReport): string {
  return report.diagnostics
    .map((item) => {
      const { start, end } = item.range;
      const properties = [
        `file=${escapeProperty(item.file)}`,
        `line=${start.line + 1}`,
        `col=${start.character + 1}`,
        `endLine=${end.line + 1}`,
        `endColumn=${end.character + 1}`,
        `title=${escapeProperty(`skillgraph ${item.code}`)}`,
      ];
      return `::${COMMANDS[item.severity]} ${properties.join(',')}::${escapeData(item.message)}\n`;
    })
    .join('');
}
