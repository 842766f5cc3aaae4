import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Severity } from '../../checks/diagnostic';
import { RULES, type RuleCode } from '../../checks/rules';
import { isSecurityCode, SECURITY_RANKS } from '../../checks/security';
import { sha256 } from '../../checks/sha256';
import type { CheckReport } from './report';

const LEVELS: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  information: 'note',
  hint: 'note',
};

export interface SarifOptions {
  version: string;
  /** The folder holding `<code>.md` pages; each rule's help link points there. */
  docsDir: string;
}

/** SARIF 2.1.0 with one rule per diagnostic code, each with its docs page as help. */
export function formatSarif(report: CheckReport, options: SarifOptions): string {
  const codes = Object.keys(RULES) as RuleCode[];
  const index = new Map(codes.map((code, i) => [code, i]));
  const rules = codes.map((code) => {
    const page = path.join(options.docsDir, `${code}.md`);
    const markdown = readIfPresent(page);
    return {
      id: code,
      name: code,
      shortDescription: { text: RULES[code].summary },
      helpUri: pathToFileURL(page).href,
      ...(markdown ? { help: { text: RULES[code].summary, markdown } } : {}),
      defaultConfiguration: { level: LEVELS[RULES[code].severity] },
      // GitHub code scanning ranks security results by these, and lists the weakness each finds.
      ...(isSecurityCode(code)
        ? {
            properties: {
              'security-severity': SECURITY_RANKS[code].severity,
              tags: ['security', ...SECURITY_RANKS[code].cwe.map((cwe) => `external/cwe/${cwe.toLowerCase()}`)],
            },
          }
        : {}),
    };
  });
  const results = report.diagnostics.map((item) => ({
    ruleId: item.code,
    ruleIndex: index.get(item.code)!,
    level: LEVELS[item.severity],
    message: { text: item.message },
    ...(isSecurityCode(item.code) ? { properties: { 'security-severity': SECURITY_RANKS[item.code].severity } } : {}),
    // Code scanning follows a finding across commits by this, not by its line (which moves with every edit above it).
    partialFingerprints: {
      'skillgraph/v1': sha256(`${artifactUri(item.file)}\0${item.fingerprint}`).slice(0, 32),
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(item.file) },
          region: {
            startLine: item.range.start.line + 1,
            startColumn: item.range.start.character + 1,
            endLine: item.range.end.line + 1,
            endColumn: item.range.end.character + 1,
          },
        },
      },
    ],
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'skillgraph', version: options.version, rules } }, results }],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/** Relative paths stay relative (SARIF consumers resolve them against the checkout); absolute ones become file URLs. */
function artifactUri(file: string): string {
  return path.isAbsolute(file) ? pathToFileURL(file).href : file.split(path.sep).map(encodeURIComponent).join('/');
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
