import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Severity } from '../../checks/engine/diagnostic';
import { ruleOf, RULES } from '../../rules';
import { sha256 } from '../../workspace/sha256';
import type { LspRange } from '../../protocol';
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
  const index = new Map<string, number>(RULES.map((rule, i) => [rule.code, i]));
  const rules = RULES.map((rule) => {
    const page = path.join(options.docsDir, `${rule.code}.md`);
    const markdown = readIfPresent(page);
    return {
      id: rule.code,
      name: rule.code,
      shortDescription: { text: rule.summary },
      helpUri: pathToFileURL(page).href,
      ...(markdown ? { help: { text: rule.summary, markdown } } : {}),
      defaultConfiguration: { level: LEVELS[rule.severity] },
      // GitHub code scanning ranks security results by these, and lists the weakness each finds.
      ...(rule.security
        ? {
            properties: {
              'security-severity': rule.security.severity,
              tags: ['security', ...rule.security.cwe.map((cwe) => `external/cwe/${cwe.toLowerCase()}`)],
            },
          }
        : {}),
    };
  });
  const results = report.diagnostics.map((item) => {
    const security = ruleOf(item.code)?.security;
    return {
      ruleId: item.code,
      ruleIndex: index.get(item.code)!,
      level: LEVELS[item.severity],
      message: { text: item.message },
      ...(security ? { properties: { 'security-severity': security.severity } } : {}),
      // Code scanning follows a finding across commits by this, not by its line (which moves with every edit above it).
      partialFingerprints: {
        'skillgraph/v1': sha256(`${artifactUri(item.file)}\0${item.fingerprint}`).slice(0, 32),
      },
      locations: [{ physicalLocation: physicalLocation(item.file, item.range) }],
      // The other skill of a pair: code scanning links to it from the result.
      ...(item.related
        ? {
            relatedLocations: item.related.map((place, id) => ({
              id,
              physicalLocation: physicalLocation(place.file, place.range),
              message: { text: place.message },
            })),
          }
        : {}),
    };
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'skillgraph', version: options.version, rules } }, results }],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/** A file and a range as SARIF places them: 1-based lines and columns. */
function physicalLocation(file: string, range: LspRange) {
  return {
    artifactLocation: { uri: artifactUri(file) },
    region: {
      startLine: range.start.line + 1,
      startColumn: range.start.character + 1,
      endLine: range.end.line + 1,
      endColumn: range.end.character + 1,
    },
  };
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
