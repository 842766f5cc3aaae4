import { diagnostic, type Diagnostic } from '../diagnostic';
import type { Span } from '../../parse/lineIndex';
import type { RuleCode } from '../rules';
import { fenceLanguage, type Fence } from '../../parse/skillFile';
import type { Placed } from './skillTexts';

// Commands that hand the user's machine to someone else: code downloaded and run at once, writes into the places a
// shell or SSH trusts, permissions opened to everyone, TLS checks turned off. Read in scripts, and in the fenced
// commands of Markdown; never run.

interface Risk {
  code: Extract<RuleCode, 'remote_code' | 'risky_command'>;
  pattern: RegExp;
  /** What the command does, for the message and the preview. */
  what: string;
}

const FETCH = String.raw`(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|fetch)`;
const RISKS: Risk[] = [
  {
    code: 'remote_code',
    pattern: new RegExp(
      String.raw`\b${FETCH}\b[^|\n]*\|\s*(?:sudo\s+(?:-\w+\s+)*)?(?:sh|bash|zsh|dash|ksh|python[23]?|node|perl|ruby|php|iex|Invoke-Expression|pwsh|powershell)\b`,
    ),
    what: 'pipes a download into a shell or an interpreter',
  },
  {
    code: 'remote_code',
    pattern: new RegExp(
      String.raw`(?:\b(?:bash|sh|zsh|source|\.)\s+<\(\s*${FETCH}\b|\beval\s+"?\$\(\s*${FETCH}\b|\biex\s*\(\s*(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|\(?New-Object\s+Net\.WebClient))`,
      'i',
    ),
    what: 'runs code it downloads',
  },
  {
    code: 'remote_code',
    pattern: /\bexec\s*\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get|httpx\.get)\s*\(/,
    what: 'runs Python it downloads',
  },
  {
    code: 'risky_command',
    pattern:
      /(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?(?:~|\$HOME|\$\{HOME\})\/\.(?:bashrc|zshrc|profile|bash_profile|zprofile|ssh\/authorized_keys|ssh\/config|gitconfig)\b|(?:>>?|\btee\s+(?:-a\s+)?)\s*\/etc\/|\b(?:cp|mv|install)\b[^\n]*\s(?:~|\$HOME)\/\.ssh\//,
    what: 'writes into a file the shell, SSH or Git trusts, outside the skill and the project',
  },
  {
    code: 'risky_command',
    pattern: /\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|o\+w)\b/,
    what: 'opens permissions to every user',
  },
  {
    code: 'risky_command',
    pattern:
      /\bcurl\b[^\n]*\s(?:-k|--insecure)\b|\bwget\b[^\n]*--no-check-certificate|\bverify\s*=\s*False\b|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|\brejectUnauthorized\s*:\s*false\b|\bsslVerify\s+false\b|PYTHONHTTPSVERIFY\s*=\s*["']?0|\bInsecureSkipVerify\s*:\s*true\b/,
    what: 'turns off TLS certificate checks',
  },
];

/** A word every risk needs: a text with none of them is not read line by line. */
const ANY_RISK =
  /curl|wget|iwr|irm|Invoke-|fetch|eval|source|<\(|exec\s*\(|>>?\s*["']?(?:~|\$\{?HOME|\/etc)|tee\b|\.ssh\/|chmod|verify|TLS|rejectUnauthorized|sslVerify|InsecureSkip/;

/** The risky commands of commands: a whole script, or the contents of Markdown's fenced blocks of commands. */
export function riskyExecution(file: string, commands: Placed[]): Diagnostic[] {
  const findings: Diagnostic[] = [];
  for (const piece of commands) {
    if (!ANY_RISK.test(piece.text)) continue;
    let offset = piece.start;
    for (const line of piece.text.split('\n')) {
      // A comment says, it does not run.
      if (!/^\s*(?:#|\/\/|REM\b)/.test(line))
        for (const risk of RISKS) {
          const match = risk.pattern.exec(line);
          if (!match) continue;
          findings.push(
            diagnostic(
              risk.code,
              file,
              { start: offset + match.index, end: offset + match.index + match[0].length, file },
              `This ${risk.what}: \`${line.trim().slice(0, 120)}\`. ${risk.code === 'remote_code' ? "Whatever the address serves then runs with the user's permissions, and may change after review. Ship the script with the skill, or download, check (a pinned version or checksum) and then run." : 'Keep what the skill does inside the skill folder and the project, with checks on.'}`,
              { risk: risk.what },
            ),
          );
          break;
        }
      offset += line.length + 1;
    }
  }
  return findings;
}

/** The languages of fenced blocks that hold commands (a shell or PowerShell, Python, or no language). */
const COMMAND_LANGUAGES = /^(?:|bash|sh|shell|zsh|console|shell-session|powershell|ps1|pwsh|cmd|bat|python|py)$/;

/** Where the contents of the fenced blocks of commands are. */
export function commandBlocks(fences: Fence[]): Span[] {
  return fences.filter((fence) => COMMAND_LANGUAGES.test(fenceLanguage(fence))).map((fence) => fence.content);
}
