// Where tools keep a user's logins: one list for every reader that asks whether a text, a command or a path names
// one (prose, shell, Python and JavaScript, the questions for a model), so a store added here is known to all of them.

/**
 * The files and folders a thief takes, as any text names them, with or without the home folder in front (`~/`,
 * `$HOME/`, `%USERPROFILE%\`: a pattern that starts with a literal is found without trying every place of a long
 * text): cloud, registry, container and Git logins, SSH's folder and its private keys (not `config`, `known_hosts`,
 * `authorized_keys` or a `.pub`, which hold no secret), and the GitHub and Google Cloud command lines' logins. Slashes
 * either way. A project's `.env` is not here: each reader tells the file from a value read out of it its own way.
 */
export const CREDENTIAL_STORE = String.raw`\.(?:aws[\\/]credentials|ssh(?:[\\/](?!config\b|known_hosts\b|authorized_keys\b|[\w.-]*\.pub\b)[\w.-]+|(?![\\/\w.-]))|netrc|git-credentials|docker[\\/]config\.json|kube[\\/]config|npmrc|pypirc|config[\\/]gh[\\/]hosts\.ya?ml|config[\\/]gcloud\b(?:[\\/][\w.-]*credentials[\w.-]*|(?![\\/\w.-])))|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)`;

/** The home folder as a path starts from it, in a shell or on Windows. */
export const HOME_PREFIX = String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%)[\\/]`;

/**
 * A path (its whole text, as a script builds it) that ends at a store, or at a browser's cookie and password stores
 * or a macOS keychain: names too common in prose to look for there (a page on cookies), but a path's last part.
 */
const STORE_PATH = new RegExp(
  String.raw`(?:^|[\\/])(?:(?:${CREDENTIAL_STORE})|\.env|Cookies|Login Data|cookies\.sqlite|logins\.json|key[34]\.db|Keychains[\\/][^\\/]+)$`,
);

/** Whether a path names where logins are kept. */
export const isCredentialPath = (path: string) => STORE_PATH.test(path);
