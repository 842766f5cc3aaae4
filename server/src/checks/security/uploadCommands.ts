import type { ShellWord } from '../../parse/shell/shellSyntax';
import type { Effects, Sent } from './shellEffects';

// Commands that carry files or text off the machine without being a network client by name: cloud storage copies
// (`aws s3 cp|sync|mv`, `gsutil cp|rsync`, `rclone copy|sync`, `az storage blob upload`) and what the GitHub CLI
// posts for everyone with access to read (`gh gist create`, `gh issue|pr comment --body`, `gh api -f body=`). Each
// sends what it is given; shellDataFlow.ts then says whether a secret is in it.

/** A place in a cloud's storage, or an rclone remote (`name:path`). */
const REMOTE_STORE = /^(?:s3|gs|az|abfss?|wasbs?):\/\/|^[\w-]+:(?!\/\/)\S/;
/** A credentials file named by an include pattern (`--include '.aws/*'`): the copy takes it from the folder copied. */
const SECRET_PATTERN =
  /^\.?(?:aws|ssh|netrc|git-credentials|docker\/config|kube\/config|npmrc|pypirc|config\/gh|env\b)/;
/** The user's home folder as a word names it: a copy of it holds every credentials file kept there. */
const HOME = /^(?:~|\$\{?HOME\}?)\/?$/;

/** What `name` (with `args`) uploads, and to where; effects unchanged for any other command. */
export function uploads(name: string, args: ShellWord[], effects: Effects): void {
  const [verb, object] = [args[0]?.text, args[1]?.text];
  const plain = (from: number) => args.slice(from).filter((word) => !word.text.startsWith('-'));
  let sent: ShellWord[] = [];
  let to: string | undefined;
  if (
    (name === 'aws' && verb === 's3' && /^(?:cp|sync|mv)$/.test(object ?? '')) ||
    name === 'gsutil' ||
    name === 'rclone'
  ) {
    const words = plain(name === 'aws' ? 2 : 1).filter((word) => !/^(?:cp|rsync|copy|sync|move|mv)$/.test(word.text));
    // The last place is where the copy goes: an upload when it is remote (or a variable naming one) and what is
    // copied is here; one from a remote place downloads.
    const target = words[words.length - 1];
    const from = words.slice(0, -1);
    if (
      target &&
      from.length > 0 &&
      (REMOTE_STORE.test(target.text) || target.expanded) &&
      !from.some((word) => REMOTE_STORE.test(word.text))
    )
      [sent, to] = [from, target.text];
  } else if (name === 'az' && verb === 'storage' && args.some((word) => word.text === 'upload')) {
    const file = args.findIndex((word) => word.text === '--file' || word.text === '-f');
    if (file >= 0 && args[file + 1]) [sent, to] = [[args[file + 1]], 'Azure storage'];
  } else if (name === 'gh') {
    const body = args.findIndex((word) => /^(?:-b|--body|-f|--field|-F|--raw-field)$/.test(word.text));
    if (verb === 'gist' && object === 'create') [sent, to] = [plain(2), 'a GitHub gist'];
    else if (/^(?:issue|pr)$/.test(verb ?? '') && object === 'comment' && body >= 0 && args[body + 1])
      [sent, to] = [[args[body + 1]], 'a GitHub comment'];
    else if (verb === 'api' && body >= 0 && args[body + 1]) [sent, to] = [[args[body + 1]], 'the GitHub API'];
  }
  if (!to) return;
  const values: Sent[] = sent.map((word) => ({ word, file: word.text }));
  effects.sends = { values, input: false, to };
  // A copy of the home folder with its credentials included (or nothing left out) takes them.
  const includes = args.flatMap((word, index) =>
    /^--include$/.test(args[index - 1]?.text ?? '') ? [word.text.replace(/^['"]|['"]$/g, '')] : [],
  );
  if (sent.some((word) => HOME.test(word.text)))
    effects.readsSecretFiles.push(
      ...(includes.length > 0 ? includes.filter((pattern) => SECRET_PATTERN.test(pattern)) : ['~ (the home folder)']),
    );
}
