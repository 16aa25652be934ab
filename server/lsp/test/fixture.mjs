// The fixture workspace, written to a temporary folder by each test (it is
// kept here rather than as files so its .gitignore does not apply to this
// repository). The cursor on computeChecksum inside verifyUpload should
// bring its definition in src/checksum.go first, then docs/decisions.md,
// the design note naming both.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const files = {
  'src/upload.go': `package upload

import "errors"

// verifyUpload checks a finished upload against the checksum the client sent.
func verifyUpload(data []byte, want uint32) error {
	got := computeChecksum(data)
	if got != want {
		return errors.New("upload corrupted")
	}
	return nil
}
`,
  'src/checksum.go': `package upload

import "hash/crc32"

var table = crc32.MakeTable(crc32.Castagnoli)

// computeChecksum returns the CRC-32C of b.
func computeChecksum(b []byte) uint32 {
	return crc32.Checksum(b, table)
}
`,
  'src/download.go': `package upload

import "errors"

// fetch reads data for a download; data is returned whole.
func fetch(data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, errors.New("no data")
	}
	return data, nil
}
`,
  'docs/decisions.md': `# Decisions

## Upload integrity

verifyUpload compares the checksum the client sent with computeChecksum, which
uses CRC-32C rather than SHA-256: every upload is checked on the request path
and CRC-32C is hardware accelerated. Revisit if uploads cross untrusted networks.

## Logging

Logs go to stderr as JSON lines.
`,
  '.gitignore': 'build/\n*.tmp\n',
  'build/out.go': 'package build // generated, ignored\n',
};

// The cursor palace/relevant is asked at: on computeChecksum in upload.go.
export const cursor = { file: 'src/upload.go', line: 6, character: 12 };

export function writeFixture(root) {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return root;
}
