// The fixture workspace, written to a temporary folder by each test. Its
// one copy is ../testdata/fixture.json, which server/lsp's Go tests read
// too (fixture_test.go), so the two suites cannot drift: the cursor on
// computeChecksum inside verifyUpload should bring its definition in
// src/checksum.go first, then docs/decisions.md, the design note naming
// both.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const fixture = JSON.parse(readFileSync(new URL('../testdata/fixture.json', import.meta.url), 'utf8'));

export const files = fixture.files;

// The cursor palace/relevant is asked at: on computeChecksum in upload.go.
export const cursor = fixture.cursor;

export function writeFixture(root) {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return root;
}
