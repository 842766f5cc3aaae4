import type { FormatId } from '../../model/skillModel';
import type { Diagnostic, Severity } from './diagnostic';
import type { Fix, FixSource } from './fix';
import type { ProfileId } from '../../platforms/profiles';

/**
 * What a rule is about, in the order the docs index lists them. A new rule goes last in its category in the catalog
 * (`rules/catalog.generated.ts`), so the index a SARIF result gives its rule stays the same from one release to the
 * next.
 */
export const CATEGORIES = {
  file: 'The file and its container',
  frontmatter: 'Frontmatter fields',
  security: 'What a skill from a stranger may hide',
  companion: 'The files beside SKILL.md that clients and eval tools read',
  client: 'What one client reads differently',
  paths: 'Paths named by the skill',
  aip: 'AIP container and metadata',
  graph: 'Graph checks',
  'aip-graph': 'AIP 0.5 graph checks',
  metaskill: 'MetaSkill plans',
  skillplus: 'skill+ packages',
  strict: "The reference validator's verdict (`strict`)",
  config: 'Configuration and suppressions',
  library: 'The library: what skills are to each other',
  compile: 'Compiling: findings about a result before it is written',
} as const;

export type RuleCategory = keyof typeof CATEGORIES;

/**
 * `stable` rules run by default. A `preview` rule is new and may still change what it reports: it is off unless the
 * configuration names it in `rules`, turns previews on (`preview: true`), or the CLI is given `--preview`.
 */
export type Stability = 'stable' | 'preview';

/** How far a rule's fix may be trusted (fixes/fix.ts): `safe` is applied by `skillgraph fix` unasked. */
export type FixSafety = 'safe' | 'unsafe';

/** How a security rule ranks in GitHub code scanning (its `security-severity`, 0 to 10) and the weaknesses it finds. */
export interface SecurityRank {
  severity: string;
  cwe: readonly string[];
  /**
   * It asks a reviewer to read something (a broad grant, a command run unasked, a file unread) rather than reporting a
   * danger: the `security` preset makes it a warning where it makes the others errors.
   */
  review?: true;
}

/** Everything known about one diagnostic code; the catalog, SARIF, profiles and the docs index read it. */
export interface Rule<Code extends string = string> {
  /** Stable: editors, SARIF consumers, suppressions and `docs/rules/<code>.md` key on it. */
  code: Code;
  category: RuleCategory;
  /** The default severity (the `agentskills` profile's). */
  severity: Severity;
  /** One line for SARIF rule descriptions and the docs index. */
  summary: string;
  stability: Stability;
  /** The formats whose skills it checks: `all`, or the format ids. */
  formats: 'all' | readonly FormatId[];
  /**
   * The tier of the fix it offers (the best, when it offers several); absent when it has none. The fix is `fix`, or,
   * where it edits a format's own structure (an AIP step, a MetaSkill's `depends_on`), the format's.
   */
  fixable?: FixSafety;
  /** Its fixes of one finding, the preferred first, from the text of the finding's file. */
  fix?: (item: Diagnostic, source: FixSource) => Fix[];
  /** Security rules: `check --only security` shows them, SARIF ranks them. */
  security?: SecurityRank;
  /** Severities under profiles whose consumer reads the finding differently (`off` drops it). */
  profiles?: Partial<Record<ProfileId, Severity | 'off'>>;
  /** Its severity under `--strict`, when the reference validator judges it more severely. */
  strict?: Severity;
  /** What its findings point at is a secret: never shown, not even in a baseline (which keeps a hash of it). */
  textIsSecret?: true;
  /** What its findings point at never runs (a step nothing reaches): editors fade it. */
  unnecessary?: true;
}

/**
 * Declares a rule. Each rule is declared once, in the file that holds its check (or the check its family shares),
 * as `export const name = defineRule({ … })`; the catalog is generated from these declarations.
 */
export function defineRule<const Code extends string>(rule: Rule<Code>): Rule<Code> {
  return rule;
}
