import type { ProfileId } from '../platforms/profiles';
import type { RuleCode } from '../rules';

// Each command the CLI runs, with its options as parsed: what parseArgs (args.ts) hands the command's runner, and the
// formats each command writes.

export const CHECK_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export const GRAPH_FORMATS = ['json', 'mermaid', 'dot'] as const;
export const CONTEXT_FORMATS = ['text', 'json'] as const;
export const LIBRARY_FORMATS = ['text', 'json', 'cypher', 'graphml', 'csv', 'sarif', 'github'] as const;
export const QUERY_FORMATS = ['text', 'json'] as const;
export const DIFF_FORMATS = ['text', 'json', 'markdown'] as const;

export type CheckFormat = (typeof CHECK_FORMATS)[number];
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

export type Command =
  | {
      command: 'check';
      paths: string[];
      format: CheckFormat;
      profile?: ProfileId;
      strict?: boolean;
      /** `--preview`: the preview rules run too. */
      preview?: boolean;
      catalog: string[];
      maxWarnings?: number;
      jobs?: number;
      baseline?: string;
      updateBaseline?: boolean;
      /** `--only security`: report the security rules alone. */
      only?: 'security';
      /** `--shard K/N`: check the K-th of N slices of the skills found. */
      shard?: { index: number; count: number };
      /** `--hash`: each skill's content hash in the JSON report. */
      hash?: boolean;
      /** `--model`: the configured language model is asked about suspicious paragraphs (model_opinion). */
      model?: boolean;
    }
  | {
      command: 'fix';
      paths: string[];
      unsafe: boolean;
      dryRun: boolean;
      codes: RuleCode[];
      profile?: ProfileId;
      strict?: boolean;
      preview?: boolean;
      catalog: string[];
    }
  | { command: 'init'; dir: string; force: boolean }
  | {
      command: 'library';
      paths: string[];
      format: (typeof LIBRARY_FORMATS)[number];
      profile?: ProfileId;
      /** Where `--format csv` writes its files. */
      out?: string;
      force: boolean;
      /** `--user-folders`: the clients' user-level skill folders join the library. */
      userFolders: boolean;
      /** `--max-warnings N`: more warnings than N exit 1, as `check`'s. */
      maxWarnings?: number;
    }
  | {
      command: 'query';
      name?: string;
      paths: string[];
      format: (typeof QUERY_FORMATS)[number];
      userFolders: boolean;
    }
  | { command: 'merge-reports'; files: string[]; format: CheckFormat; maxWarnings?: number }
  | { command: 'graph'; path: string; format: GraphFormat; profile?: ProfileId; catalog: string[] }
  | {
      command: 'diff';
      /** The revisions or folders compared: none (HEAD and the working tree), one (it and the working tree), two. */
      sides: string[];
      paths: string[];
      format: (typeof DIFF_FORMATS)[number];
      profile?: ProfileId;
      catalog: string[];
    }
  | { command: 'hash'; paths: string[]; format: (typeof QUERY_FORMATS)[number] }
  | {
      command: 'context';
      path: string;
      at: string;
      state?: string;
      event?: string;
      round?: number;
      tool?: string;
      format: (typeof CONTEXT_FORMATS)[number];
    }
  | {
      command: 'compile';
      path: string;
      /** The target's id. */
      to: string;
      out?: string;
      force: boolean;
      /** `--aip-version`: the version of the target to write. */
      version?: string;
      profile?: ProfileId;
      catalog: string[];
    }
  | { command: 'help' }
  | { command: 'version' };
